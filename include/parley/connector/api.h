// Umbrella header of Parley's connector API (the DSV2 contracts in C++).
#pragma once

#include "parley/connector/catalog.h"
#include "parley/connector/changelog.h"
#include "parley/connector/expressions.h"
#include "parley/connector/metadata_columns.h"
#include "parley/connector/plugin.h"
#include "parley/connector/read.h"
#include "parley/connector/row_level.h"
#include "parley/connector/status.h"
#include "parley/connector/table.h"
#include "parley/connector/types.h"
#include "parley/connector/write.h"
