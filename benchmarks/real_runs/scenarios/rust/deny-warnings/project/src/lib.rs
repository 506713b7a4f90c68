//! A fixed-capacity ring buffer.
#![deny(warnings)]

use std::fmt::Debug;

pub struct Ring<T> {
    buf: Vec<Option<T>>,
    head: usize,
    len: usize,
}

impl<T> Ring<T> {
    pub fn with_capacity(cap: usize) -> Self {
        let mut buf = Vec::with_capacity(cap);
        buf.resize_with(cap, || None);
        Ring { buf, head: 0, len: 0 }
    }

    /// Push, overwriting the oldest item when full; returns the overwritten item.
    pub fn push(&mut self, item: T) -> Option<T> {
        let cap = self.buf.len();
        let tail = (self.head + self.len) % cap;
        let old = self.buf[tail].replace(item);
        if self.len == cap {
            self.head = (self.head + 1) % cap;
        } else {
            self.len += 1;
        }
        old
    }

    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let item = self.buf[self.head].take();
        let cap = self.buf.len();
        self.head = (self.head + 1) % cap;
        self.len -= 1;
        item
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overwrites_oldest() {
        let mut r = Ring::with_capacity(2);
        r.push(1);
        r.push(2);
        assert_eq!(r.push(3), Some(1));
        assert_eq!(r.pop(), Some(2));
    }
}
