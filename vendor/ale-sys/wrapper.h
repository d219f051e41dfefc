#include <ale_c_wrapper.h>
