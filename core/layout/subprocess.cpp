#include "core/layout/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace passlab::layout {

namespace {
// An AddressSanitizer build's helper reserves terabytes of shadow address
// space at start-up, which any RLIMIT_AS refuses: such builds (a developer's
// check, docs/sanitizers.md) run the helper without the limit.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitized = true;
#else
constexpr bool kAddressSanitized = false;
#endif
#else
constexpr bool kAddressSanitized = false;
#endif
}  // namespace

namespace {

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void setNonBlocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL, 0);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

std::string firstLine(const std::string& s) {
  size_t start = s.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return "";
  size_t end = s.find('\n', start);
  std::string line = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (line.size() > 200) line = line.substr(0, 200) + "...";
  return line;
}

}  // namespace

std::string ProcessOutcome::describe() const {
  std::string s;
  switch (end) {
    case End::kExited:
      s = "exited with code " + std::to_string(exitCode);
      break;
    case End::kSignalled:
      s = std::string("was killed by signal ") + std::to_string(signal) + " (" +
          ::strsignal(signal) + ")";
      break;
    case End::kTimedOut:
      s = "ran past its time limit and was stopped";
      break;
    case End::kCancelled:
      s = "was cancelled";
      break;
    case End::kFailedToStart:
      s = "could not be started";
      break;
  }
  std::string detail = firstLine(err);
  if (!detail.empty()) s += ": " + detail;
  return s;
}

namespace {

using End = ProcessOutcome::End;
using Clock = std::chrono::steady_clock;

// The child's stdin (a socket, so writing to a helper that died gives EPIPE,
// not SIGPIPE), stdout, stderr, and a pipe that carries exec's errno.
struct ChildPipes {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, exec[2] = {-1, -1};

  bool open() {
    return ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) == 0 &&
           ::pipe2(out, O_CLOEXEC) == 0 && ::pipe2(err, O_CLOEXEC) == 0 &&
           ::pipe2(exec, O_CLOEXEC) == 0;
  }
  void closeAll() {
    for (int* p : {in, out, err, exec}) {
      closeFd(p[0]);
      closeFd(p[1]);
    }
  }
};

// Forks and execs `program`; -1 (with outcome.err) when it could not be started.
// Everything the child needs is prepared before fork (only async-signal-safe calls after).
pid_t startChild(const std::string& program, const std::vector<std::string>& args,
                 const ProcessLimits& limits, ChildPipes& pipes, ProcessOutcome& outcome) {
  std::vector<std::string> argStore;
  argStore.push_back(program);
  argStore.insert(argStore.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argStore) argv.push_back(a.data());
  argv.push_back(nullptr);
  struct rlimit asLimit = {static_cast<rlim_t>(limits.addressSpaceBytes),
                           static_cast<rlim_t>(limits.addressSpaceBytes)};

  pid_t pid = ::fork();
  if (pid < 0) {
    outcome.err = std::string("fork failed: ") + std::strerror(errno);
    return -1;
  }
  if (pid == 0) {
    ::dup2(pipes.in[1], STDIN_FILENO);
    ::dup2(pipes.out[1], STDOUT_FILENO);
    ::dup2(pipes.err[1], STDERR_FILENO);
    if (limits.addressSpaceBytes > 0 && !kAddressSanitized) ::setrlimit(RLIMIT_AS, &asLimit);
    ::execv(argv[0], argv.data());
    int e = errno;
    ssize_t ignored = ::write(pipes.exec[1], &e, sizeof e);
    (void)ignored;
    ::_exit(127);
  }
  closeFd(pipes.in[1]);
  closeFd(pipes.out[1]);
  closeFd(pipes.err[1]);
  closeFd(pipes.exec[1]);

  // Did exec work? The pipe closes on exec (EOF) or carries errno.
  int execErrno = 0;
  ssize_t got;
  do {
    got = ::read(pipes.exec[0], &execErrno, sizeof execErrno);
  } while (got < 0 && errno == EINTR);
  closeFd(pipes.exec[0]);
  if (got == static_cast<ssize_t>(sizeof execErrno)) {
    ::waitpid(pid, nullptr, 0);
    outcome.err = program + ": " + std::strerror(execErrno);
    return -1;
  }
  return pid;
}

// Feeds `input` to the child and collects its stdout and stderr until both
// close. kExited when they did; otherwise what stopped the exchange.
End exchange(ChildPipes& pipes, const std::string& input, const ProcessLimits& limits,
             Clock::time_point deadline, const std::stop_token& stop, ProcessOutcome& outcome) {
  setNonBlocking(pipes.in[0]);
  setNonBlocking(pipes.out[0]);
  setNonBlocking(pipes.err[0]);
  if (input.empty()) closeFd(pipes.in[0]);
  size_t written = 0;
  bool tooMuch = false;
  char buf[65536];
  while (pipes.out[0] >= 0 || pipes.err[0] >= 0) {
    if (stop.stop_requested()) return End::kCancelled;
    auto now = Clock::now();
    if (now >= deadline) return End::kTimedOut;
    pollfd fds[3];
    int nfds = 0;
    int outIdx = -1, errIdx = -1, inIdx = -1;
    if (pipes.out[0] >= 0) fds[outIdx = nfds++] = {pipes.out[0], POLLIN, 0};
    if (pipes.err[0] >= 0) fds[errIdx = nfds++] = {pipes.err[0], POLLIN, 0};
    if (pipes.in[0] >= 0) fds[inIdx = nfds++] = {pipes.in[0], POLLOUT, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    int wait = static_cast<int>(std::min<long long>(50, std::max<long long>(1, left)));
    int ready = ::poll(fds, static_cast<nfds_t>(nfds), wait);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (inIdx >= 0 && (fds[inIdx].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = ::send(pipes.in[0], input.data() + written, input.size() - written, MSG_NOSIGNAL);
      if (n > 0) written += static_cast<size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) {
        ::shutdown(pipes.in[0], SHUT_WR);
        closeFd(pipes.in[0]);
      }
    }
    auto drain = [&](int idx, int& fd, std::string& sink) {
      if (idx < 0 || !(fds[idx].revents & (POLLIN | POLLHUP | POLLERR))) return;
      while (true) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
          sink.append(buf, static_cast<size_t>(n));
          if (sink.size() > limits.maxOutputBytes) {
            tooMuch = true;
            return;
          }
          continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EINTR)) closeFd(fd);
        return;
      }
    };
    drain(outIdx, pipes.out[0], outcome.out);
    drain(errIdx, pipes.err[0], outcome.err);
    if (tooMuch) {
      outcome.err += "\noutput exceeded " + std::to_string(limits.maxOutputBytes) + " bytes";
      return End::kSignalled;
    }
  }
  return End::kExited;
}

// Waits for a child whose output has closed (it is exiting, or closed its
// streams and lingers), killing it at the deadline or on cancel.
void reap(pid_t pid, Clock::time_point deadline, const std::stop_token& stop,
          ProcessOutcome& outcome) {
  int status = 0;
  while (true) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (stop.stop_requested() || Clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      outcome.end = stop.stop_requested() ? End::kCancelled : End::kTimedOut;
      return;
    }
    ::usleep(2000);
  }
  if (WIFEXITED(status)) {
    outcome.end = End::kExited;
    outcome.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    outcome.end = End::kSignalled;
    outcome.signal = WTERMSIG(status);
  }
}

}  // namespace

ProcessOutcome runProcess(const std::string& program, const std::vector<std::string>& args,
                          const std::string& input, const ProcessLimits& limits,
                          std::stop_token stop) {
  ProcessOutcome outcome;
  ChildPipes pipes;
  if (!pipes.open()) {
    outcome.err = std::string("cannot create pipes: ") + std::strerror(errno);
    pipes.closeAll();
    return outcome;
  }
  pid_t pid = startChild(program, args, limits, pipes, outcome);
  if (pid < 0) {
    pipes.closeAll();
    return outcome;
  }
  const auto deadline = Clock::now() + limits.timeout;
  End stoppedBy = exchange(pipes, input, limits, deadline, stop, outcome);
  pipes.closeAll();
  if (stoppedBy != End::kExited) {
    int status = 0;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    outcome.end = stoppedBy;
    if (stoppedBy == End::kSignalled) outcome.signal = SIGKILL;
    return outcome;
  }
  reap(pid, deadline, stop, outcome);
  return outcome;
}

}  // namespace passlab::layout
