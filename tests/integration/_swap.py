"""Exchanges two paths atomically (renameat2 RENAME_EXCHANGE) in a tight
loop for a bounded time, then leaves them as they were (an even number of
exchanges) and prints how many exchanges it made. Before it exits it opens
any FIFO among the two for reading and writing, which never blocks and frees
a reader that a bug left blocked on it.

Usage: _swap.py PATH_A PATH_B MILLISECONDS
"""
import ctypes
import os
import stat
import sys
import time

AT_FDCWD = -100
RENAME_EXCHANGE = 2

libc = ctypes.CDLL(None, use_errno=True)
renameat2 = libc.renameat2
renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
a, b, limit = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2]), int(sys.argv[3]) / 1000
end = time.monotonic() + limit
n = 0
while True:
    if renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        sys.exit(f"renameat2: {os.strerror(err)}")
    n += 1
    if n % 64 == 0 and time.monotonic() >= end:
        break
for path in (a, b):
    if stat.S_ISFIFO(os.lstat(path).st_mode):
        os.close(os.open(path, os.O_RDWR | os.O_NONBLOCK))
print(n)
