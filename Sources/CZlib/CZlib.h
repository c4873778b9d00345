// The system's zlib (Debian's zlib1g-dev) for gzip: a well-tested deflate instead of one written by hand.
#include <zlib.h>
