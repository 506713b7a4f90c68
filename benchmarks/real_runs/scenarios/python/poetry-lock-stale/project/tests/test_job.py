from tasks.job import Job


def test_defaults():
    assert Job("build").retries == 3
