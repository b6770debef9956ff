#ifndef GEOCONV_CCAIRO_SHIM_H
#define GEOCONV_CCAIRO_SHIM_H

#include <cairo.h>
#include <cairo-svg.h>
#include <cairo-pdf.h>

#endif
