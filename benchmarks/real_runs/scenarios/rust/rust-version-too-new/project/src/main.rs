fn main() {
    let deltas = [1u32, 3, 2, 7, 0, 5];
    let packed = bitpack::pack(&deltas, 3);
    println!("{} deltas -> {} bytes", deltas.len(), packed.len());
}
