#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: this names the one setting we make.
// Memory statistics take a process-wide mutex around every allocation SQLite makes; Debian's build has no
// lookaside (SQLITE_OMIT_LOOKASIDE), so that is every small allocation of every statement step. Must run before
// SQLite initialises; returns SQLITE_MISUSE (and changes nothing) after.
static inline int ti_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
