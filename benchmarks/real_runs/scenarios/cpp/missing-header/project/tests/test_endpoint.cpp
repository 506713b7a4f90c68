#include <cstdio>
#include "netio/endpoint.hpp"

int main()
{
    int failed = 0;
    auto a = netio::parse_endpoint("example.org:8080", 443);
    failed += !(a && a->port == 8080 && a->host == "example.org");
    auto b = netio::parse_endpoint("example.org", 443);
    failed += !(b && b->port == 443);
    failed += netio::parse_endpoint("", 443).has_value();
    std::printf("test_endpoint: %d failure(s)\n", failed);
    return failed != 0;
}
