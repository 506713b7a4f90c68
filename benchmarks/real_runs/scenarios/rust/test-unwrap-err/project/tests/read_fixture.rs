use confkit::Config;

fn fixture() -> Config {
    Config::parse(include_str!("fixtures/server.conf"))
}

#[test]
fn host_is_read() {
    assert_eq!(fixture().get("host"), Some("0.0.0.0"));
}

#[test]
fn port_is_an_int() {
    assert_eq!(fixture().get_int("port").unwrap().unwrap(), 8080);
}

#[test]
fn workers_is_an_int() {
    let workers = fixture().get_int("workers").unwrap().unwrap();
    assert!(workers > 0);
}

#[test]
fn missing_key_is_none() {
    assert!(fixture().get("user").is_none());
}
