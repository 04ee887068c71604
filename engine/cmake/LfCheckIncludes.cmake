# Run by each engine module's build (see LfEngineModule.cmake): every #include of an
# engine header in the module's own files must name the module itself or a dependency it
# declares directly. The include tree already refuses anything outside the
# dependencies' closure; this also refuses leaning on a dependency of a dependency, and relative
# includes that climb out of the folder. Writes STAMP when all is well.
# Arguments: -DMODULE= -DROOT= -DSTAMP= and '|'-joined -DFILES=, -DALLOWED= (folders) and
#            -DENGINE_DIRS= (every module folder).
cmake_minimum_required(VERSION 3.25)  # script mode: IN_LIST and the other current policies
foreach(v FILES ALLOWED ENGINE_DIRS)
  string(REPLACE "|" ";" ${v} "${${v}}")
endforeach()
set(problems)
foreach(file IN LISTS FILES)
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  file(RELATIVE_PATH rel ${ROOT} ${file})
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]*)[\">].*" "\\1" path "${line}")
    if(path MATCHES "^\\.\\./|/\\.\\./")
      list(APPEND problems "${rel}: #include \"${path}\" climbs out of its folder; name the header from the module root")
      continue()
    endif()
    string(REGEX REPLACE "^layerforge/" "" header "${path}")
    get_filename_component(dir "${header}" DIRECTORY)
    if(NOT dir OR NOT dir IN_LIST ENGINE_DIRS OR dir IN_LIST ALLOWED)
      continue()  # beside the file, not an engine header, or allowed
    endif()
    list(APPEND problems "${rel}: #include \"${path}\" is in module folder '${dir}', which '${MODULE}' does not declare")
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "engine module '${MODULE}' includes modules it does not depend on:\n  ${text}\n"
                      "Declare the dependency in engine/CMakeLists.txt (if it makes no cycle) or move the code.")
endif()
file(TOUCH ${STAMP})
