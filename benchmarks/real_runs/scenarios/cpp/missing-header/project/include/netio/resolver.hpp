#pragma once
#include <string>
#include <vector>
#include "netio/endpoint.hpp"

namespace netio {
std::vector<std::string> resolve_all(const Endpoint &ep);
}
