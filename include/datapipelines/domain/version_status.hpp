#pragma once
// The lifecycle status of a template or pipeline version, as stored and as shown: a version is
// written as a DRAFT, released once, and a replaced draft is DISCARDED (kept for the history).
namespace dp {

inline constexpr const char* kDraftStatus = "DRAFT";
inline constexpr const char* kReleasedStatus = "RELEASED";
inline constexpr const char* kDiscardedStatus = "DISCARDED";

}  // namespace dp
