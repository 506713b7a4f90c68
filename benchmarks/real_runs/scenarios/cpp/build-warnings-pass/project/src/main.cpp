#include <cstring>
#include <iostream>
#include "logfmt.hpp"

int main(int argc, char **argv)
{
    Level level = Level::info;
    int i = 1;
    if (argc > 2 && std::strcmp(argv[1], "--level") == 0) {
        std::string l = argv[2];
        level = l == "error" ? Level::error : l == "warn" ? Level::warn : l == "debug" ? Level::debug : Level::info;
        i = 3;
    }
    for (; i < argc; i++)
        std::cout << format_line(level, argv[i], 0) << '\n';
    unsigned shown = argc - 1;
    if (shown < argc && legacy_error_code(level) > 1)
        std::cout << "(legacy code " << legacy_error_code(level) << ")\n";
    return 0;
}
