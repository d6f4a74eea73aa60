#pragma once
// The handle on a template value, apart from Value itself so the parse tree can hold literals.
#include <memory>

namespace dp::tmpl {

struct Value;
// Render values are counted without atomics (libstdc++'s single-threaded lock policy): a
// render's values are made, shared and dropped by the one thread running it. The few values
// that outlive a render (parse-time literals, true and false) are handed out unowned, with
// no control block, so no count is ever touched by two threads.
using ValuePtr = std::__shared_ptr<const Value, __gnu_cxx::_S_single>;
using MutableValuePtr = std::__shared_ptr<Value, __gnu_cxx::_S_single>;
// A non-owning handle on a value that outlives every render using it.
inline ValuePtr Unowned(const Value* value) { return ValuePtr(ValuePtr(), value); }

}  // namespace dp::tmpl
