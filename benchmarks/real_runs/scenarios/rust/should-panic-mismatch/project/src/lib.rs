//! A bounded ring-buffer queue.

#[derive(Debug)]
pub struct Ring<T> {
    buf: Vec<Option<T>>,
    head: usize,
    len: usize,
}

impl<T> Ring<T> {
    /// A ring holding at most `capacity` items.
    ///
    /// # Panics
    /// When `capacity` is zero.
    pub fn with_capacity(capacity: usize) -> Self {
        assert!(capacity > 0, "ring capacity must be positive");
        Ring { buf: (0..capacity).map(|_| None).collect(), head: 0, len: 0 }
    }

    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_full(&self) -> bool {
        self.len == self.capacity()
    }

    /// Pushes `item`, returning the oldest item when the ring was full.
    pub fn push(&mut self, item: T) -> Option<T> {
        let cap = self.capacity();
        let tail = (self.head + self.len) % cap;
        let evicted = self.buf[tail].replace(item);
        if self.len == cap {
            self.head = (self.head + 1) % cap;
        } else {
            self.len += 1;
        }
        evicted
    }

    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let item = self.buf[self.head].take();
        self.head = (self.head + 1) % self.capacity();
        self.len -= 1;
        item
    }

    /// The item `i` places from the oldest.
    ///
    /// # Panics
    /// When `i >= len()`.
    pub fn get(&self, i: usize) -> &T {
        assert!(i < self.len, "index {i} out of range for ring of length {}", self.len);
        self.buf[(self.head + i) % self.capacity()].as_ref().unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! fill_and_drain {
        ($($name:ident: $cap:expr, $n:expr;)*) => {$(
            #[test]
            fn $name() {
                let mut r = Ring::with_capacity($cap);
                for i in 0..$n {
                    r.push(i);
                }
                let kept: Vec<i32> = std::iter::from_fn(|| r.pop()).collect();
                let first = ($n as i32 - $cap as i32).max(0);
                assert_eq!(kept, (first..$n as i32).collect::<Vec<_>>());
            }
        )*};
    }

    fill_and_drain! {
        drain_cap1_n0: 1, 0;
        drain_cap1_n1: 1, 1;
        drain_cap1_n5: 1, 5;
        drain_cap2_n1: 2, 1;
        drain_cap2_n2: 2, 2;
        drain_cap2_n9: 2, 9;
        drain_cap3_n3: 3, 3;
        drain_cap3_n4: 3, 4;
        drain_cap4_n16: 4, 16;
        drain_cap8_n5: 8, 5;
        drain_cap8_n8: 8, 8;
        drain_cap8_n100: 8, 100;
        drain_cap16_n15: 16, 15;
        drain_cap16_n17: 16, 17;
    }

    #[test]
    fn empty_pop_is_none() {
        let mut r: Ring<u8> = Ring::with_capacity(2);
        assert!(r.pop().is_none());
        assert!(r.is_empty());
    }
}
