#include <gtest/gtest.h>
#include "units.hpp"

TEST(ParseSize, Suffixes)
{
    EXPECT_EQ(parse_size("4k"), 4096);
    EXPECT_EQ(parse_size("1.5M"), 1572864);
    EXPECT_FALSE(parse_size("12x").has_value());
}

TEST(FormatSize, Rounds) { EXPECT_EQ(format_size(1536), "1.5 KiB"); }
