from app.store import Store


def test_module_imports():
    assert Store


def test_add_user(store):
    assert store.add_user("ada") == 1


def test_names_sorted_by_insertion(store):
    store.add_user("grace")
    store.add_user("alan")
    assert store.names() == ["grace", "alan"]
