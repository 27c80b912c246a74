// attnx core (internal): the lab's sweep record as a caller's value, read (formatSweep) and
// written (parseSweep, summariseSweep), for core/calls_io.cpp. Not installed. Shape and
// refusals: calls_io.hpp.
#pragma once
#include <string>
#include <vector>

#include <attnx/json.hpp>
#include <attnx/sweep_io.hpp>

namespace attnx::call_record {

// An object in the JavaScript sense: a plain object, an array or a typed array.
bool is_object(const JsonValue& v);
// d values per trial: absent or negative = not reached (-1), else an integer in [1, kMaxD];
// refusals name `path`[t] and carry `field`.
std::vector<int> read_d_values(const JsonValue* a, const char* field, const std::string& path);
// d values with null for not reached.
JsonValue d_values(const std::vector<int>& d);
// A point with the CLI's keys (SPEC §9's bound keys too when it has bounds), and the record.
JsonValue point_value(const SweepRecordPoint& p);
// A record (source, complete and params.Ls are not read; fits computed when left out).
SweepRecord read_record(const JsonValue& rec);
JsonValue record_value(const SweepRecord& rec);
// { log: { model, ok, a, b, r2 }, power: { model, ok, c, p, r2 } } with nulls when not ok.
JsonValue fits_value(const SweepFits& f);

}  // namespace attnx::call_record
