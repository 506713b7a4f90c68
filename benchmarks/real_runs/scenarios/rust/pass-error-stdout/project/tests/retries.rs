use retry_client::with_retries;

#[test]
fn succeeds_after_two_failures() {
    let got = with_retries(3, |n| {
        if n < 3 {
            Err(format!("connection refused (os error 111) on attempt {n}"))
        } else {
            Ok(42)
        }
    });
    assert_eq!(got, Ok(42));
}

#[test]
fn gives_up_and_returns_the_error() {
    let got: Result<(), String> = with_retries(2, |_| Err("timed out".to_string()));
    assert_eq!(got, Err("timed out".to_string()));
}

#[test]
fn error_output_is_expected() {
    eprintln!("error: this stderr line is part of the test's expected output");
    assert!(with_retries(1, |_| Ok::<_, String>(())).is_ok());
}
