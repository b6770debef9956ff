#ifndef GEOCONV_CZLIB_SHIM_H
#define GEOCONV_CZLIB_SHIM_H

#include <zlib.h>


#endif
