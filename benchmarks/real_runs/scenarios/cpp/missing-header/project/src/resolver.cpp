#include <netdb.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include "net/endpoint.hpp"
#include "netio/resolver.hpp"

namespace netio {

std::vector<std::string> resolve_all(const Endpoint &ep)
{
    std::vector<std::string> out;
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    if (getaddrinfo(ep.host.c_str(), nullptr, &hints, &res) != 0)
        return out;
    for (addrinfo *p = res; p; p = p->ai_next) {
        char buf[INET6_ADDRSTRLEN];
        void *addr = p->ai_family == AF_INET
                         ? static_cast<void *>(&reinterpret_cast<sockaddr_in *>(p->ai_addr)->sin_addr)
                         : static_cast<void *>(&reinterpret_cast<sockaddr_in6 *>(p->ai_addr)->sin6_addr);
        if (inet_ntop(p->ai_family, addr, buf, sizeof buf))
            out.emplace_back(buf);
    }
    freeaddrinfo(res);
    return out;
}

} // namespace netio
