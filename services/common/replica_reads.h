// Replica reads: whether the reads of the call running on this thread may be
// served by a read replica (a PostgreSQL hot standby, config
// db_read_replica), which may be a little behind the primary.
//
// The call gate opens a ReplicaReadScope around the domain call of the public
// read RPCs (services/server/replica_reads.h lists them); storage::Database
// serves Read() from the replica while ReplicaReadsAllowed() is true on the
// calling thread and a replica is configured, else from the primary. A
// Write() on the thread ends the permission for the rest of the scope
// (NoteWriteOnThisThread): the reads that follow a write (the public index
// reading back what was just committed, a settle pass checking its own
// result) see the primary. Reads inside a write run on the writer connection
// and never reach the replica.
//
// Header only: storage (which reads the flag) and the gate (which sets it)
// share it without depending on each other. Per thread; a scope must end on
// the thread that opened it (the gate's calls are synchronous).
#ifndef GORANK_SERVICES_COMMON_REPLICA_READS_H_
#define GORANK_SERVICES_COMMON_REPLICA_READS_H_

namespace gorank {

namespace replica_reads_internal {
struct ThreadState {
  bool allowed = false;  // inside a scope that allows replica reads
  bool wrote = false;    // a write ran on this thread inside that scope
};
inline thread_local ThreadState state;
}  // namespace replica_reads_internal

// While it lives (and until a write on this thread), reads on this thread
// may be served by the read replica. `allow` false opens a scope that
// allows nothing (so a caller can open one unconditionally). Scopes nest:
// the outer state comes back when an inner scope ends.
class ReplicaReadScope {
 public:
  explicit ReplicaReadScope(bool allow = true)
      : saved_(replica_reads_internal::state) {
    replica_reads_internal::state = {allow, false};
  }
  ~ReplicaReadScope() { replica_reads_internal::state = saved_; }
  ReplicaReadScope(const ReplicaReadScope&) = delete;
  ReplicaReadScope& operator=(const ReplicaReadScope&) = delete;

 private:
  replica_reads_internal::ThreadState saved_;
};

// True inside a ReplicaReadScope(true) in which this thread has not written.
inline bool ReplicaReadsAllowed() {
  const auto& s = replica_reads_internal::state;
  return s.allowed && !s.wrote;
}

// Called by the database at every write: the reads that follow on this
// thread, until the scope ends, go to the primary.
inline void NoteWriteOnThisThread() {
  replica_reads_internal::state.wrote = true;
}

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_REPLICA_READS_H_
