// Precompiled prelude for every translation unit.
// <utility> first: Boost 1.74's asio/awaitable.hpp uses std::exchange without including it.
#pragma once
#include <utility>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
