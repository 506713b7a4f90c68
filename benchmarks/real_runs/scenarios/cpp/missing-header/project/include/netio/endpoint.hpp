#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace netio {

struct Endpoint {
    std::string host;
    std::uint16_t port = 0;
    std::string to_string() const;
};

std::optional<Endpoint> parse_endpoint(const std::string &text, std::uint16_t default_port);

} // namespace netio
