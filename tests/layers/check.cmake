# Proves that the layers are enforced at compile time: each case is a file of one
# layer that includes a header of a layer it must not see (above it, or beside it),
# and must fail to compile because that header is not found. Run by ctest as
#   cmake -DBUILD_DIR=<build> -DCASES=target:header,... -P check.cmake
string(REPLACE "," ";" cases "${CASES}")
set(failures "")
foreach(case IN LISTS cases)
  string(REPLACE ":" ";" parts "${case}")
  list(GET parts 0 target)
  list(GET parts 1 header)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${target}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "${header}[:'][^\n]*(No such file|not found)" found "${out}${err}")
  if(status EQUAL 0)
    string(APPEND failures "${target}: a file that includes ${header} compiled: that boundary is not enforced\n")
  elseif(NOT found)
    string(APPEND failures "${target}: failed to build, but not because ${header} was not found:\n${out}${err}\n")
  else()
    message(STATUS "${target}: ${header} is out of reach, as it must be")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
