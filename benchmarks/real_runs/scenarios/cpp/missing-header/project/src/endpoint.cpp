#include "netio/endpoint.hpp"

namespace netio {

std::string Endpoint::to_string() const { return host + ":" + std::to_string(port); }

std::optional<Endpoint> parse_endpoint(const std::string &text, std::uint16_t default_port)
{
    if (text.empty())
        return std::nullopt;
    auto colon = text.rfind(':');
    if (colon == std::string::npos)
        return Endpoint{text, default_port};
    unsigned long port = std::stoul(text.substr(colon + 1));
    if (port == 0 || port > 65535)
        return std::nullopt;
    return Endpoint{text.substr(0, colon), static_cast<std::uint16_t>(port)};
}

} // namespace netio
