import logging

log = logging.getLogger(__name__)


class BufferEmptyError(IndexError):
    pass


class Ring:
    def __init__(self, size):
        if size < 1:
            raise ValueError("size must be positive")
        self._items = [None] * size
        self._start = 0
        self._len = 0

    def __len__(self):
        return self._len

    def push(self, item):
        size = len(self._items)
        if self._len == size:
            log.warning("ring full (size=%d): dropping oldest item", size)
            self._start = (self._start + 1) % size
            self._len -= 1
        self._items[(self._start + self._len) % size] = item
        self._len += 1

    def pop(self):
        if not self._len:
            raise BufferEmptyError("error: pop from an empty ring")
        item = self._items[self._start]
        self._start = (self._start + 1) % len(self._items)
        self._len -= 1
        return item

    def peek_all(self):
        size = len(self._items)
        return [self._items[(self._start + i) % size] for i in range(self._len)]

    def resize(self, size):
        items = self.peek_all()[-size:]
        self.__init__(size)
        for item in items:
            self.push(item)
