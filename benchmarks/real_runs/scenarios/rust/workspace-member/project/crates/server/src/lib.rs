//! Request handling for the kv server.
use kv_core::Store;

pub enum Request {
    Get(String),
    Put(String, Vec<u8>),
}

pub enum Response {
    Value(Option<Vec<u8>>),
    Stored,
}

pub fn handle(store: &mut Store, req: Request) -> Response {
    match req {
        Request::Get(k) => Response::Value(store.get(&k).map(<[u8]>::to_vec)),
        Request::Put(k, v) => {
            store.put(&k, v);
            Response::Stored
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_then_get() {
        let mut s = Store::default();
        handle(&mut s, Request::Put("x".into(), vec![1]));
        match handle(&mut s, Request::Get("x".into())) {
            Response::Value(v) => assert_eq!(v, Some(vec![1])),
            Response::Stored => panic!("wrong response"),
        }
    }
}
