#pragma once
// Options that take one of a few words. CLI11's own transformers also take the values the words
// stand for ("--ids 1") and print their check ("Check foo value in {...} FAILED"); this validator
// takes the words only and says which they are.
#include "core/cli.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace g500 {

// The words, "a|b|c", for messages and --help.
inline std::string word_list(const std::vector<std::string>& words) {
  std::string list;
  for (const std::string& w : words) list += (list.empty() ? "" : "|") + w;
  return list;
}

// An option's words and the values they stand for: one list, read by choice() and written back
// (--json) by word_of().
template <class T>
using Words = std::vector<std::pair<std::string, T>>;

// The word that stands for `value` in `words`.
template <class T>
const std::string& word_of(const Words<T>& words, T value) {
  for (const auto& [word, v] : words)
    if (v == value) return word;
  throw std::logic_error("an option's value without a word");
}

// For an option whose target is T (an enum, bool or std::string): each word and its value.
template <class T>
CLI::Validator choice(Words<T> words) {
  std::vector<std::string> names;
  for (const auto& w : words) names.push_back(w.first);
  const std::string list = word_list(names);
  return CLI::Validator(
      [words = std::move(words), list](std::string& text) -> std::string {
        for (const auto& [word, value] : words) {
          if (text != word) continue;
          if constexpr (std::is_same_v<T, std::string>) text = value;
          else text = std::to_string(static_cast<long long>(value));  // what CLI11 reads into an enum or bool
          return "";
        }
        return "must be " + list + ", got '" + text + "'";
      },
      list, "choice");
}

// An option whose value is one of `words`, kept as the word.
inline CLI::Validator one_of(const std::vector<std::string>& words) {
  std::vector<std::pair<std::string, std::string>> same;
  for (const std::string& w : words) same.emplace_back(w, w);
  return choice<std::string>(same);
}

}  // namespace g500
