#warning "legacy.cpp is kept for the 2.x error-code API and will be removed in 4.0"
#include "logfmt.hpp"

int legacy_error_code(Level level) { return level == Level::error ? 2 : 0; }
