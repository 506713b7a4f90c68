use kv_core::Store;

fn main() {
    let mut store = Store::default();
    for arg in std::env::args().skip(1) {
        if let Some((k, v)) = arg.split_once('=') {
            store.put(k, v.as_bytes().to_vec(), None);
        }
    }
    println!("{} keys", store.len());
}
