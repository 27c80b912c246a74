// SPEC §9's bounds in sweep files and sweep parts (sweep_io.hpp, sweep_shard.hpp): written after
// the existing keys and columns, read back exactly, files and parts written before them still read
// (and write their old bytes), bad bound values refused naming the entry.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "helpers.hpp"
#include <attnx/bounds.hpp>
#include <attnx/json.hpp>
#include <attnx/sweep_io.hpp>
#include <attnx/sweep_shard.hpp>

namespace {

std::string fixture(const std::string& name) {
  std::string dir = __FILE__;
  dir = dir.substr(0, dir.rfind('/'));
  std::ifstream in(dir + "/../node/lab-fixtures/" + name, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Two lengths of a window sweep, the second with one trial not reached.
attnx::SweepRecord record_with_bounds() {
  attnx::SweepRecord r;
  r.version = "9.9.9";
  r.params.pattern = "window";
  r.params.family = {{"w", 1}};
  r.params.tau = 0.1;
  r.params.delta = 0.1;
  r.params.trials = 2;
  attnx::SweepPoint a, b;
  a.L = 16, a.d_mins = {32, 48}, a.k = 3, a.logit_scales = {4.5, 5.5}, a.max_abs_logits = {3, 3.5};
  a.column_supports = 16;
  b.L = 32, b.d_mins = {-1, 64}, b.k = 3, b.logit_scales = {-1, 6}, b.max_abs_logits = {-1, 4};
  b.column_supports = 32;
  for (attnx::SweepPoint* p : {&a, &b}) {
    p->median = attnx::median_d(p->d_mins);
    p->quantile = attnx::quantile_d(p->d_mins, 0.1);
    r.points.push_back(attnx::record_point(*p, 0.1));
  }
  return r;
}

std::string refusal(const std::string& text) {
  auto e = th::invalid([&] { attnx::parse_sweep(text); });
  return e.what();
}

// The JSON text with `from` replaced by `to` once.
std::string edited(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a point's bounds are the medians of the trials that reached and the floors there") {
  const attnx::SweepRecord r = record_with_bounds();
  const attnx::SweepPointBounds& a = *r.points[0].bounds;
  CHECK(a.logit_scale == 5);
  CHECK(a.max_abs_logit == 3.25);
  CHECK(a.d_lambda == attnx::packing_floor(5, 16, 0.1));
  CHECK(a.ratio == 40 / a.d_lambda);
  CHECK(a.bits_fixed_keys == attnx::bits_fixed_keys(16, 3));
  const attnx::SweepPointBounds& b = *r.points[1].bounds;
  CHECK(b.logit_scale == 6);  // the trial not reached is left out
  CHECK(std::isnan(b.ratio));  // its median d_min is not reached
}

TEST_CASE("bounds are written after the existing keys and columns and read back byte for byte") {
  const attnx::SweepRecord r = record_with_bounds();
  const std::string json = attnx::sweep_to_json(r), csv = attnx::sweep_to_csv(r);
  CHECK(th::contains(json, "\"madds\": 0,\n      \"logit_scale\": 6,\n      \"column_supports\": 32,"));
  CHECK(th::contains(json, "\"logit_scales\": [null, 6],\n      \"max_abs_logits\": [null, 4]\n"));
  CHECK(th::contains(csv, "\n32,2,NA,NA,0,3,0,true,NA;64,6,32,"));
  CHECK(th::contains(csv, ",NA;6,NA;4\n"));
  CHECK(attnx::sweep_to_json(attnx::parse_sweep(json)) == json);
  CHECK(attnx::sweep_to_csv(attnx::parse_sweep(csv)) == csv);
  CHECK(attnx::sweep_to_csv(attnx::parse_sweep(json)) == csv);
  const attnx::SweepRecord back = attnx::parse_sweep(csv);
  CHECK(back.points[1].bounds->logit_scales == std::vector<double>{-1, 6});
  CHECK(back.points[1].bounds->column_supports == 32);
}

TEST_CASE("files written before the bounds read without them and keep their bytes") {
  for (const char* name : {"cli-sweep-paper.json", "cli-sweep-dilated.json", "cli-sweep-notreached.json"}) {
    const std::string text = fixture(name);
    const attnx::SweepRecord r = attnx::parse_sweep(text);
    for (const auto& p : r.points) CHECK_FALSE(p.bounds.has_value());
    CHECK(attnx::sweep_to_json(r) == text);
  }
  const std::string csv = fixture("cli-sweep-paper.csv");
  CHECK(attnx::sweep_to_csv(attnx::parse_sweep(csv)) == csv);
}

TEST_CASE("bad bounds in a sweep file are refused naming the entry") {
  const std::string json = attnx::sweep_to_json(record_with_bounds());
  CHECK(refusal(edited(json, "\"logit_scales\": [null, 6]", "\"logit_scales\": [6]")) ==
        "points[1].logit_scales must be an array of 2 numbers or nulls, one per trial (got an array)");
  CHECK(refusal(edited(json, "\"logit_scales\": [null, 6]", "\"logit_scales\": [2, 6]")) ==
        "points[1].logit_scales[0] must be null where d_mins[0] is null (not reached) (got 2)");
  CHECK(refusal(edited(json, "\"max_abs_logits\": [null, 4]", "\"max_abs_logits\": [null, -4]")) ==
        "points[1].max_abs_logits[1] must be a number >= 0 or null (got -4)");
  CHECK(refusal(edited(json, "\"column_supports\": 32", "\"column_supports\": 33")) ==
        "points[1].column_supports must be an integer from 1 to 32 or null (got 33)");
  CHECK(refusal(edited(json, "\"column_supports\": 16,\n      \"d_lambda\": ", "\"column_supports\": 16,\n      \"d_lambda\": -")) ==
        "points[0].d_lambda must be a number >= 0 or null (got -" + attnx::json_number(attnx::packing_floor(5, 16, 0.1)) + ")");
  const std::string csv = attnx::sweep_to_csv(record_with_bounds());
  CHECK(refusal(edited(csv, ",NA;6,NA;4\n", ",NA;6\n")) == "row 3 must have 21 comma-separated columns (got 20)");
  CHECK(refusal(edited(csv, ",NA;6,NA;4\n", ",NA;x,NA;4\n")) == "row 3, logit_scales[1] must be a number or NA (got \"x\")");
}

TEST_CASE("parts written before the bounds still merge: those trials' bounds are unknown") {
  attnx::SweepOptions o;
  o.pattern.family = attnx::Family::Window;
  o.Ls = {16, 24};
  o.trials = 2;
  attnx::SweepPart part;
  part.opt = o;
  part.count = 1;
  part.tasks = attnx::shard_tasks(o, 0, 1);
  for (const auto& t : part.tasks) part.results.push_back(attnx::sweep_trial(o, t.L, t.trial));
  const std::string now = attnx::sweep_part_to_json(part);
  CHECK(th::contains(now, "\"logit_scale\": "));
  // The same part as written before: without the three bound keys of each result.
  std::string old = now;
  for (const char* k : {"logit_scale", "max_abs_logit", "column_supports"})
    for (std::size_t at; (at = old.find(std::string(", \"") + k + "\": ")) != std::string::npos;)
      old.erase(at, old.find_first_of(",}", at + 3) - at);
  REQUIRE(old.find("logit_scale") == std::string::npos);
  std::vector<attnx::SweepPart> parts = {attnx::parse_sweep_part(old)};
  attnx::SweepOptions back;
  const attnx::SweepResult merged = attnx::merge_sweep_parts(parts, {"old.json"}, back);
  const attnx::SweepRecord rec = attnx::sweep_record(back, merged);
  REQUIRE(rec.points[0].bounds);
  CHECK(std::isnan(rec.points[0].bounds->logit_scale));
  CHECK(rec.points[0].bounds->bits_fixed_keys == attnx::bits_fixed_keys(16, 3));
  CHECK(attnx::parse_sweep(attnx::sweep_to_json(rec)).points.size() == 2u);
  // The new part merges to the unsharded sweep's record.
  parts = {attnx::parse_sweep_part(now)};
  const attnx::SweepResult again = attnx::merge_sweep_parts(parts, {"now.json"}, back);
  CHECK(attnx::sweep_to_json(attnx::sweep_record(back, again)) == attnx::sweep_to_json(attnx::sweep_record(o, attnx::sweep(o))));
}
