#pragma once
#include <optional>
#include <string>

// Parses sizes like "512", "4k", "1.5M", "2G" into bytes.
std::optional<long long> parse_size(const std::string &text);
std::string format_size(long long bytes);
