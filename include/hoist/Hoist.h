// Everything of Hoist's public API (docs/API.md).
#pragma once

#include "hoist/ControlFlow.h"
#include "hoist/Diagnostics.h"
#include "hoist/Image.h"
#include "hoist/Lifter.h"
#include "hoist/Optimize.h"
#include "hoist/Options.h"
#include "hoist/Program.h"
#include "hoist/Translate.h"
#include "hoist/Version.h"
