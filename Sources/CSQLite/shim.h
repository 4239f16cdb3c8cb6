#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: this names the one setting we make.
// Memory statistics take a process-wide mutex around every allocation SQLite makes; Debian's build has no
// lookaside (SQLITE_OMIT_LOOKASIDE), so that is every small allocation of every statement step. Must run before
// SQLite initialises; returns SQLITE_MISUSE (and changes nothing) after.
static inline int ti_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// sqlite3_db_config is variadic too. Whether the last connection to close checkpoints the WAL into the database
// file (and deletes the WAL): off until the opener has read the database and found it sound, so that a failed open
// never writes a WAL that is not the database's own (another database's, copied in beside it) into the file.
static inline int ti_sqlite3_checkpoint_on_close(sqlite3 *db, int enabled) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1, (int *)0);
}
