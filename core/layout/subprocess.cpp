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

ProcessOutcome runProcess(const std::string& program, const std::vector<std::string>& args,
                          const std::string& input, const ProcessLimits& limits,
                          std::stop_token stop) {
  ProcessOutcome outcome;
  // stdin is a socket so writing to a helper that died gives EPIPE, not SIGPIPE.
  int inPair[2] = {-1, -1}, outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, execPipe[2] = {-1, -1};
  auto closeAll = [&] {
    for (int* p : {inPair, outPipe, errPipe, execPipe}) {
      closeFd(p[0]);
      closeFd(p[1]);
    }
  };
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, inPair) != 0 ||
      ::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0 ||
      ::pipe2(execPipe, O_CLOEXEC) != 0) {
    outcome.err = std::string("cannot create pipes: ") + std::strerror(errno);
    closeAll();
    return outcome;
  }
  // Everything the child needs is prepared before fork (only async-signal-safe calls after).
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
    closeAll();
    return outcome;
  }
  if (pid == 0) {
    ::dup2(inPair[1], STDIN_FILENO);
    ::dup2(outPipe[1], STDOUT_FILENO);
    ::dup2(errPipe[1], STDERR_FILENO);
    if (limits.addressSpaceBytes > 0) ::setrlimit(RLIMIT_AS, &asLimit);
    ::execv(argv[0], argv.data());
    int e = errno;
    ssize_t ignored = ::write(execPipe[1], &e, sizeof e);
    (void)ignored;
    ::_exit(127);
  }
  closeFd(inPair[1]);
  closeFd(outPipe[1]);
  closeFd(errPipe[1]);
  closeFd(execPipe[1]);

  // Did exec work? The pipe closes on exec (EOF) or carries errno.
  int execErrno = 0;
  ssize_t got;
  do {
    got = ::read(execPipe[0], &execErrno, sizeof execErrno);
  } while (got < 0 && errno == EINTR);
  closeFd(execPipe[0]);
  if (got == static_cast<ssize_t>(sizeof execErrno)) {
    ::waitpid(pid, nullptr, 0);
    outcome.err = program + ": " + std::strerror(execErrno);
    closeAll();
    return outcome;
  }

  setNonBlocking(inPair[0]);
  setNonBlocking(outPipe[0]);
  setNonBlocking(errPipe[0]);
  if (input.empty()) closeFd(inPair[0]);
  size_t written = 0;
  const auto deadline = std::chrono::steady_clock::now() + limits.timeout;
  bool tooMuch = false;
  ProcessOutcome::End stoppedBy = ProcessOutcome::End::kExited;
  char buf[65536];
  while (outPipe[0] >= 0 || errPipe[0] >= 0) {
    if (stop.stop_requested()) {
      stoppedBy = ProcessOutcome::End::kCancelled;
      break;
    }
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      stoppedBy = ProcessOutcome::End::kTimedOut;
      break;
    }
    pollfd fds[3];
    int nfds = 0;
    int outIdx = -1, errIdx = -1, inIdx = -1;
    if (outPipe[0] >= 0) fds[outIdx = nfds++] = {outPipe[0], POLLIN, 0};
    if (errPipe[0] >= 0) fds[errIdx = nfds++] = {errPipe[0], POLLIN, 0};
    if (inPair[0] >= 0) fds[inIdx = nfds++] = {inPair[0], POLLOUT, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    int wait = static_cast<int>(std::min<long long>(50, std::max<long long>(1, left)));
    int ready = ::poll(fds, static_cast<nfds_t>(nfds), wait);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (inIdx >= 0 && (fds[inIdx].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = ::send(inPair[0], input.data() + written, input.size() - written, MSG_NOSIGNAL);
      if (n > 0) written += static_cast<size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) {
        ::shutdown(inPair[0], SHUT_WR);
        closeFd(inPair[0]);
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
    drain(outIdx, outPipe[0], outcome.out);
    drain(errIdx, errPipe[0], outcome.err);
    if (tooMuch) {
      outcome.err += "\noutput exceeded " + std::to_string(limits.maxOutputBytes) + " bytes";
      stoppedBy = ProcessOutcome::End::kSignalled;
      break;
    }
  }
  closeAll();
  int status = 0;
  if (stoppedBy != ProcessOutcome::End::kExited) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    outcome.end = stoppedBy;
    if (stoppedBy == ProcessOutcome::End::kSignalled) outcome.signal = SIGKILL;
    return outcome;
  }
  // Output closed: the child is exiting (or closed its streams and lingers).
  while (true) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (stop.stop_requested() || std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      outcome.end =
          stop.stop_requested() ? ProcessOutcome::End::kCancelled : ProcessOutcome::End::kTimedOut;
      return outcome;
    }
    ::usleep(2000);
  }
  if (WIFEXITED(status)) {
    outcome.end = ProcessOutcome::End::kExited;
    outcome.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    outcome.end = ProcessOutcome::End::kSignalled;
    outcome.signal = WTERMSIG(status);
  }
  return outcome;
}

}  // namespace passlab::layout
