// `gpsimd run --timeline`: a picture of a run of queues (SPEC §8) as an SVG, one lane per
// engine, each issued word a box in schedule order, the semaphore updates and the waits
// they release as arrows, a race, a fault or a deadlock marked in red.
#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>

#include "cli.h"

namespace gpsimd::cli {
namespace {

constexpr int kLeft = 70;     // room for the lane names
constexpr int kTop = 40;      // room for the heading
constexpr int kLane = 70;     // the height of a lane
constexpr int kColumn = 150;  // one column per issued word
constexpr int kBoxW = 136, kBoxH = 40;

// Text for XML character data and attribute values.
std::string xml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control bytes have no place in XML 1.0 text.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
          out += '?';
        else
          out += c;
    }
  }
  return out;
}

int lane_y(Engine e) {
  return kTop + static_cast<int>(e) * kLane;
}
int column_x(std::size_t column) {
  return kLeft + 10 + static_cast<int>(column) * kColumn;
}

std::string word_id(const QueueWord& w) {
  return fmt::format("w-{}-{}", engine_id(w.queue), w.index);
}

}  // namespace

std::string timeline_svg(const QueueRun& run, const std::vector<TimelineWord>& issued,
                         const std::vector<TimelineWord>& blocked, std::string_view heading) {
  // Where each word's box is: its column.
  std::map<std::pair<int, std::size_t>, std::size_t> column;
  const auto key = [](const QueueWord& w) { return std::pair(static_cast<int>(w.queue), w.index); };
  for (std::size_t k = 0; k < issued.size(); ++k) column[key(issued[k].word)] = k;
  const std::size_t columns = issued.size() + (blocked.empty() ? 0 : 1);
  const int width = column_x(std::max<std::size_t>(columns, 1)) + 20;
  const int height = lane_y(kAllEngines.back()) + kLane + 40;

  std::string status_line(heading);
  if (run.race)
    status_line +=
        fmt::format("; race at {}: {} {} / {} {}", run.race->location.to_string(),
                    run.race->first.word.to_string(), access_name(run.race->first.access),
                    run.race->second.word.to_string(), access_name(run.race->second.access));
  if (run.status == ProgramStatus::Deadlock)
    status_line +=
        fmt::format("; {} blocked head{}", run.blocked.size(), run.blocked.size() == 1 ? "" : "s");

  std::string s;
  s += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"monospace\" font-size=\"12\">\n",
      width, height);
  s += fmt::format("<title>{}</title>\n", xml(status_line));
  s += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" "
       "markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" "
       "fill=\"#1f5fa8\"/></marker></defs>\n";
  s += fmt::format(
      "<text class=\"heading\" x=\"10\" y=\"20\" font-weight=\"bold\"{}>{}</text>\n",
      run.race || run.status == ProgramStatus::Deadlock || run.status == ProgramStatus::Fault
          ? " fill=\"#c00000\""
          : "",
      xml(status_line));
  // The lanes.
  for (Engine e : kAllEngines) {
    const int y = lane_y(e);
    s += fmt::format(
        "<g class=\"lane\" id=\"lane-{0}\"><rect x=\"0\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
        "fill=\"{4}\"/><text x=\"10\" y=\"{5}\" font-weight=\"bold\">{0}</text></g>\n",
        engine_id(e), y, width, kLane, static_cast<int>(e) % 2 ? "#f4f4f4" : "#ffffff",
        y + kLane / 2 + 4);
  }
  const auto is_race_word = [&](const QueueWord& w) {
    return run.race && (run.race->first.word == w || run.race->second.word == w);
  };
  const auto box = [&](const TimelineWord& t, std::size_t col, std::string_view cls,
                       std::string_view stroke, bool dashed, std::string_view note) {
    const int x = column_x(col), y = lane_y(t.word.queue) + (kLane - kBoxH) / 2;
    s += fmt::format(
        "<g class=\"{}\" id=\"{}\"><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" "
        "height=\"{}\" rx=\"4\" fill=\"#e8f0fb\" stroke=\"{}\" stroke-width=\"{}\"{}/>"
        "<text x=\"{}\" y=\"{}\">{}</text>",
        cls, word_id(t.word), xml(t.title), x, y, kBoxW, kBoxH, stroke, stroke == "#c00000" ? 3 : 1,
        dashed ? " stroke-dasharray=\"5,3\"" : "", x + 6, y + 16, xml(t.label));
    if (!note.empty())
      s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#c00000\">{}</text>", x + 6,
                       y + 32, xml(note));
    s += "</g>\n";
  };
  for (std::size_t k = 0; k < issued.size(); ++k) {
    const TimelineWord& t = issued[k];
    const bool faulted = k < run.schedule.size() && !run.schedule[k].retired;
    const bool racy = is_race_word(t.word);
    std::string note;
    if (racy) {
      const RaceAccess& a = run.race->first.word == t.word ? run.race->first : run.race->second;
      note = fmt::format("race: {}", access_name(a.access));
    }
    if (faulted) note = fmt::format("fault: {}", fault_name(run.fault->fault.kind));
    box(t, k,
        faulted ? "word fault"
        : racy  ? "word race"
                : "word",
        faulted || racy ? "#c00000" : "#1f5fa8", false, note);
  }
  for (std::size_t k = 0; k < blocked.size(); ++k) {
    std::string note = "blocked";
    if (k < run.blocked.size())
      note = fmt::format("blocked: sem[{}]={}", run.blocked[k].semaphore, run.blocked[k].current);
    box(blocked[k], issued.size(), "word blocked", "#c00000", true, note);
  }
  // The acquires: from the word whose update a wait acquired to the word that waited.
  for (std::size_t k = 0; k < run.schedule.size(); ++k) {
    const ScheduleStep& st = run.schedule[k];
    if (!st.acquired) continue;
    const auto from = column.find(key(*st.acquired));
    if (from == column.end()) continue;
    const int x1 = column_x(from->second) + kBoxW, y1 = lane_y(st.acquired->queue) + kLane / 2;
    const int x2 = column_x(k), y2 = lane_y(st.word.queue) + kLane / 2;
    const std::string sem = st.wait_semaphore ? fmt::format("sem[{}]", *st.wait_semaphore) : "";
    s += fmt::format(
        "<g class=\"acquire\"><title>{0}: {1} updates it, {2} waits for it and acquires "
        "{1}</title><line x1=\"{3}\" y1=\"{4}\" x2=\"{5}\" y2=\"{6}\" stroke=\"#1f5fa8\" "
        "stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/><text x=\"{7}\" y=\"{8}\" "
        "font-size=\"10\" fill=\"#1f5fa8\">{0}</text></g>\n",
        sem, st.acquired->to_string(), st.word.to_string(), x1, y1, x2, y2, (x1 + x2) / 2,
        (y1 + y2) / 2 - 4);
  }
  // The race: a red dashed line between its two words.
  if (run.race) {
    const auto a = column.find(key(run.race->first.word));
    const auto b = column.find(key(run.race->second.word));
    if (a != column.end() && b != column.end()) {
      const int x1 = column_x(a->second) + kBoxW / 2,
                y1 = lane_y(run.race->first.word.queue) + kLane / 2;
      const int x2 = column_x(b->second) + kBoxW / 2,
                y2 = lane_y(run.race->second.word.queue) + kLane / 2;
      s += fmt::format(
          "<g class=\"race\"><title>race at {}: {} {}, {} {}, neither ordered before the "
          "other</title><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#c00000\" "
          "stroke-width=\"2\" stroke-dasharray=\"6,4\"/></g>\n",
          run.race->location.to_string(), run.race->first.word.to_string(),
          access_name(run.race->first.access), run.race->second.word.to_string(),
          access_name(run.race->second.access), x1, y1, x2, y2);
    }
  }
  s += "</svg>\n";
  return s;
}

std::string timeline_html(const std::string& svg, std::string_view heading) {
  return fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head>\n"
      "<body>\n{}</body></html>\n",
      xml(heading), svg);
}

}  // namespace gpsimd::cli
