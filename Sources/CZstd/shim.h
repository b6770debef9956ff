#ifndef GEOCONV_CZSTD_SHIM_H
#define GEOCONV_CZSTD_SHIM_H

#include <zstd.h>

#endif
