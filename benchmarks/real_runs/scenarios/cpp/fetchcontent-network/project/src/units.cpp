#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "units.hpp"

std::optional<long long> parse_size(const std::string &text)
{
    char *end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || v < 0)
        return std::nullopt;
    double mult = 1;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': mult = 1024.0; break;
    case 'm': case 'M': mult = 1024.0 * 1024; break;
    case 'g': case 'G': mult = 1024.0 * 1024 * 1024; break;
    default: return std::nullopt;
    }
    return std::llround(v * mult);
}

std::string format_size(long long bytes)
{
    const char *suffix[] = {"B", "KiB", "MiB", "GiB"};
    double v = static_cast<double>(bytes);
    int i = 0;
    while (v >= 1024 && i < 3) {
        v /= 1024;
        i++;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, i ? "%.1f %s" : "%.0f %s", v, suffix[i]);
    return buf;
}
