//! Minimal bindings to the C API of libsnappy.

use std::os::raw::c_int;

#[link(name = "snappy")]
extern "C" {
    fn snappy_max_compressed_length(source_length: usize) -> usize;
    fn snappy_compress(
        input: *const u8,
        input_length: usize,
        compressed: *mut u8,
        compressed_length: *mut usize,
    ) -> c_int;
}

/// Compresses `input` with snappy.
pub fn compress(input: &[u8]) -> Vec<u8> {
    unsafe {
        let mut len = snappy_max_compressed_length(input.len());
        let mut out = vec![0u8; len];
        let status = snappy_compress(input.as_ptr(), input.len(), out.as_mut_ptr(), &mut len);
        assert_eq!(status, 0, "snappy_compress failed with status {status}");
        out.truncate(len);
        out
    }
}
