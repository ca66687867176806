/*
 * Exchanges two paths atomically (renameat2 RENAME_EXCHANGE) in a tight
 * loop for a bounded time, then leaves them as they were (an even number of
 * exchanges) and prints how many exchanges it made. Before it exits it
 * opens any FIFO among the two for reading and writing, which never blocks
 * and frees a reader that a bug left blocked on it (so a failing test ends
 * instead of hanging).
 *
 * Usage: swap PATH_A PATH_B MILLISECONDS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static int exchange(const char *a, const char *b) {
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

static long elapsed_ms(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (t.tv_sec - t0->tv_sec) * 1000L + (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: swap PATH_A PATH_B MILLISECONDS\n");
    return 2;
  }
  long limit = atol(argv[3]);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long n = 0;
  for (;;) {
    if (exchange(argv[1], argv[2]) != 0) {
      perror("renameat2");
      return 1;
    }
    n++;
    if ((n & 1) == 0 && (n & 63) == 0 && elapsed_ms(&t0) >= limit) break;
  }
  for (int i = 1; i <= 2; i++) {
    struct stat st;
    if (lstat(argv[i], &st) == 0 && S_ISFIFO(st.st_mode)) {
      int fd = open(argv[i], O_RDWR | O_NONBLOCK);
      if (fd >= 0) close(fd);
    }
  }
  printf("%ld\n", n);
  return 0;
}
