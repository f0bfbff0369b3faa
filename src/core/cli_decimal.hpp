#pragma once
// Whole-number options are plain decimal: CLI11 alone would read "010" as octal, "0x0c" as hex,
// and let "-1" or "1e23" wrap into an unsigned seed. This validator accepts only decimal digits
// (a leading '-' for signed types) whose value fits T, and hands CLI11 the number without leading
// zeros.
#include "core/cli.hpp"

#include <charconv>
#include <string>
#include <type_traits>

namespace g500 {

template <class T>
CLI::Validator decimal() {
  static_assert(std::is_integral_v<T>);
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const bool negative = !text.empty() && text[0] == '-';
        const std::size_t digits_from = negative ? 1 : 0;
        if (text.size() == digits_from || (negative && !std::is_signed_v<T>) ||
            text.find_first_not_of("0123456789", digits_from) != std::string::npos) {
          return "'" + text + "' is not a decimal " + (std::is_signed_v<T> ? "integer" : "whole number");
        }
        std::size_t first = text.find_first_not_of('0', digits_from);
        std::string normal = first == std::string::npos ? "0" : (negative ? "-" : "") + text.substr(first);
        T value{};
        const auto [end, ec] = std::from_chars(normal.data(), normal.data() + normal.size(), value);
        if (ec != std::errc() || end != normal.data() + normal.size()) return "'" + text + "' is out of range";
        text = normal;
        return "";
      },
      "", "decimal");
}

}  // namespace g500
