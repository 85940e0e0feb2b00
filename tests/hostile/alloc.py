# Allocates 10 GB and touches it.
block = bytearray(10 * 1024 ** 3)
for i in range(0, len(block), 4096):
    block[i] = 1
