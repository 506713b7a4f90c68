#pragma once
#include <string>

enum class Level { debug, info, warn, error };

std::string format_line(Level level, const std::string &msg, int indent);

[[deprecated("use format_line(); legacy_error_code() returns stale error codes")]]
int legacy_error_code(Level level);
