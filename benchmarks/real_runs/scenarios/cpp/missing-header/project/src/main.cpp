#include <iostream>
#include "netio/endpoint.hpp"
#include "netio/resolver.hpp"

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::cerr << "usage: netprobe HOST[:PORT]\n";
        return 2;
    }
    auto ep = netio::parse_endpoint(argv[1], 443);
    if (!ep) {
        std::cerr << "netprobe: bad endpoint '" << argv[1] << "'\n";
        return 2;
    }
    for (const auto &a : netio::resolve_all(*ep))
        std::cout << ep->to_string() << " -> " << a << '\n';
    return 0;
}
