#include <cstdio>
#include "ringbuf.hpp"

int main()
{
    RingBuf<int, 3> rb;
    rb.push(1);
    rb.push(2);
    rb.push(3);
    bool full = !rb.push(4);
    bool first = rb.pop() == 1;
    std::printf("full=%d first=%d\n", full, first);
    return full && first ? 0 : 1;
}
