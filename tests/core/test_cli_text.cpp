// Raw control bytes and invalid UTF-8 never reach stderr or stdout JSON (issue 9, item 9): the
// JSON writer escapes them (json_escape: \uXXXX, a byte that is not UTF-8 as \ufffd), messages
// on stderr escape them (escape_message: \uXXXX, a byte that is not UTF-8 as \xNN).
#include <doctest/doctest.h>

#include <string>

#include "cli_run.hpp"
#include <attnx/json.hpp>

using attnx::escape_message;
using attnx::json_escape;
using cli_test::check_refused;
using cli_test::clean_text;
using cli_test::run_cli;
using cli_test::spit;
using cli_test::TempDir;

TEST_CASE("json_escape: controls, DEL, C1, separators and format characters as \\uXXXX") {
  CHECK(json_escape(std::string("a\0b", 3)) == "\"a\\u0000b\"");
  CHECK(json_escape("\x1b[31m") == "\"\\u001b[31m\"");
  CHECK(json_escape("\n\r\t\"\\") == "\"\\n\\r\\t\\\"\\\\\"");
  CHECK(json_escape("\x7f") == "\"\\u007f\"");
  CHECK(json_escape("\xc2\x9b") == "\"\\u009b\"");          // U+009B, the 8-bit CSI
  CHECK(json_escape("\xe2\x80\xa8") == "\"\\u2028\"");      // line separator
  CHECK(json_escape("\xe2\x80\xae") == "\"\\u202e\"");      // right-to-left override
  CHECK(json_escape("\xef\xbb\xbfx") == "\"\\ufeffx\"");    // byte order mark
  CHECK(json_escape("\xe2\x81\xa6") == "\"\\u2066\"");      // left-to-right isolate
  // Printable UTF-8 is copied as it is.
  CHECK(json_escape("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xc2\xa0") ==
        "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xc2\xa0\"");
}

TEST_CASE("json_escape: each byte that is not well-formed UTF-8 becomes \\ufffd") {
  CHECK(json_escape("\xff") == "\"\\ufffd\"");
  CHECK(json_escape("a\x80z") == "\"a\\ufffdz\"");            // lone continuation byte
  CHECK(json_escape("\xc0\xaf") == "\"\\ufffd\\ufffd\"");     // overlong '/'
  CHECK(json_escape("\xe0\x80\xaf") == "\"\\ufffd\\ufffd\\ufffd\"");
  CHECK(json_escape("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");  // surrogate D800
  CHECK(json_escape("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // > U+10FFFF
  CHECK(json_escape("\xe2\x82") == "\"\\ufffd\\ufffd\"");     // truncated sequence
  CHECK(json_escape("\xe2\x82x") == "\"\\ufffd\\ufffdx\"");
  // The result always parses back, as the replacement character.
  CHECK(attnx::json_parse(json_escape("\xff\x1b")).str == "\xef\xbf\xbd\x1b");
}

TEST_CASE("escape_message: controls as \\uXXXX, bytes that are not UTF-8 as \\xNN") {
  CHECK(escape_message(std::string("a\0b\x1b", 4)) == "a\\u0000b\\u001b");
  CHECK(escape_message("\xff\xfe.json") == "\\xff\\xfe.json");
  CHECK(escape_message("\xef\xbb\xbf") == "\\ufeff");
  CHECK(escape_message("caf\xc3\xa9 \"x\" \\") == "caf\xc3\xa9 \"x\" \\");
}

TEST_CASE("a pattern file with ESC, a repeated BOM or bad UTF-8: messages stay printable") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string esc = dir.file("esc.json"), bom = dir.file("bom.json"), bad = dir.file("u.json");
  spit(esc, "{\"L\": \x1b[31m}");
  spit(bom, "\xef\xbb\xbf\xef\xbb\xbf[[0,0,1]]");
  spit(bad, "[\xc3]");
  auto construct = [](const std::string& f) {
    return run_cli({"construct", "--pattern", "custom", "--pattern-file", f});
  };
  const auto e = construct(esc), b = construct(bom), u = construct(bad);
  for (const auto* r : {&e, &b, &u}) {
    check_refused(*r);
    CHECK(clean_text(r->err));
  }
  CHECK(e.err.find("unexpected character \"\\u001b\"") != std::string::npos);
  CHECK(b.err.find("\\ufeff") != std::string::npos);
  CHECK(u.err.find("unexpected character \"\\ufffd\"") != std::string::npos);
}

TEST_CASE("a path that is not UTF-8 is escaped in stdout JSON and in messages") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string name = dir.file("\xff\x1b.json");
  spit(name, "[[0,0,1],[1,1,1]]");
  const auto r = run_cli({"construct", "--pattern", "custom", "--pattern-file", name, "--d", "8"});
  REQUIRE(r.status == 0);
  CHECK(clean_text(r.out));
  const attnx::JsonValue doc = attnx::json_parse(r.out);
  const attnx::JsonValue* file = doc.find("params")->find("pattern_file");
  REQUIRE(file != nullptr);
  CHECK(file->str == dir.file("\xef\xbf\xbd\x1b.json"));  // U+FFFD for the 0xFF byte
  const auto m = run_cli({"construct", "--pattern", "custom", "--pattern-file",
                          dir.file("\xff\x1bmissing")});
  check_refused(m);
  CHECK(clean_text(m.err));
  CHECK(m.err.find("\\xff\\u001bmissing: No such file or directory") != std::string::npos);
  // An unknown flag with an ESC in its name is echoed escaped too.
  const auto f = run_cli({"construct", "--\x1b]0;title\x07"});
  check_refused(f);
  CHECK(clean_text(f.err));
}
