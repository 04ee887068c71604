# lf_engine_module(): one engine module, one static library, with its dependencies declared.
#
#   lf_engine_module(NAME [DEPS module...] [PUBLIC_LIBS lib...] [PRIVATE_LIBS lib...])
#
# NAME is a module ("train", "backend/cpu") and its folder under src/ and include/layerforge/.
# The library is lf_<NAME with '/' as '_'>.
#
# Three rules make the module graph a build fact rather than a convention:
#  - A dependency must be defined before the module that names it (FATAL_ERROR otherwise). The
#    order of the calls is then a topological order, and a cycle cannot be written down.
#  - Each module compiles against an include tree of its own under the build folder, with links
#    to its own headers (include/layerforge/<dir>/ and the private src/<dir>/ ones) and to those
#    of its dependencies and theirs, and nothing else. Including a header of any other module
#    fails to compile ("No such file or directory"). Folders are linked file by file, so
#    depending on backend/ does not expose backend/cpu/.
#  - Each module's own files may include only the module itself and its direct dependencies
#    (LfCheckIncludes.cmake runs on them in the build of `all`), not a dependency of a dependency.
#
# LF_ENGINE_ROOT (the folder holding src/ and include/) and LF_ENGINE_MODULE_OPTIONS (targets
# every module links privately, e.g. warnings) are read when the function is called.

set(_LF_CHECK_INCLUDES ${CMAKE_CURRENT_LIST_DIR}/LfCheckIncludes.cmake)

function(_lf_module_key name out)
  string(REPLACE "/" "_" key "${name}")
  set(${out} ${key} PARENT_SCOPE)
endfunction()

# Links every header directly in `from` (not in its subfolders, which are other modules) into `to`.
function(_lf_link_headers from to)
  file(GLOB headers CONFIGURE_DEPENDS ${from}/*.h ${from}/*.hpp)
  if(headers)
    file(MAKE_DIRECTORY ${to})
  endif()
  foreach(h IN LISTS headers)
    get_filename_component(leaf ${h} NAME)
    file(CREATE_LINK ${h} ${to}/${leaf} SYMBOLIC)
  endforeach()
endfunction()

function(lf_engine_module name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DEPS;PUBLIC_LIBS;PRIVATE_LIBS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "lf_engine_module(${name}): unexpected arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT LF_ENGINE_ROOT)
    message(FATAL_ERROR "lf_engine_module(${name}): set LF_ENGINE_ROOT to the folder holding src/ and include/")
  endif()
  get_property(defined GLOBAL PROPERTY LF_ENGINE_MODULES)
  if(name IN_LIST defined)
    message(FATAL_ERROR "engine module '${name}' is defined twice")
  endif()
  if(NOT IS_DIRECTORY ${LF_ENGINE_ROOT}/src/${name} AND NOT IS_DIRECTORY ${LF_ENGINE_ROOT}/include/layerforge/${name})
    message(FATAL_ERROR "engine module '${name}': there is no folder src/${name} or include/layerforge/${name}")
  endif()

  # The dependencies' closure; every one of them must exist already.
  set(closure ${name})
  set(dep_targets)
  set(allowed_dirs ${name})
  foreach(dep IN LISTS arg_DEPS)
    if(NOT dep IN_LIST defined)
      message(FATAL_ERROR
        "engine module '${name}' depends on '${dep}', which is not defined before it. Modules are "
        "defined in dependency order, so this is either a misplaced call or a cycle: if '${dep}' "
        "needs '${name}' too, cut one of the two edges.")
    endif()
    _lf_module_key(${dep} dep_key)
    get_property(dep_closure GLOBAL PROPERTY LF_ENGINE_MODULE_${dep_key}_CLOSURE)
    list(APPEND closure ${dep_closure})
    list(APPEND dep_targets lf_${dep_key})
    list(APPEND allowed_dirs ${dep})
  endforeach()
  list(REMOVE_DUPLICATES closure)

  _lf_module_key(${name} key)
  set(target lf_${key})
  set(tree ${CMAKE_BINARY_DIR}/engine_modules/${key})
  file(REMOVE_RECURSE ${tree})  # links of headers since moved or deleted must not linger
  foreach(m IN LISTS closure)
    _lf_link_headers(${LF_ENGINE_ROOT}/include/layerforge/${m} ${tree}/include/layerforge/${m})
    _lf_link_headers(${LF_ENGINE_ROOT}/src/${m} ${tree}/src/${m})
  endforeach()
  file(MAKE_DIRECTORY ${tree}/include ${tree}/src)

  file(GLOB sources CONFIGURE_DEPENDS ${LF_ENGINE_ROOT}/src/${name}/*.cpp)
  file(GLOB own_headers CONFIGURE_DEPENDS ${LF_ENGINE_ROOT}/src/${name}/*.h
       ${LF_ENGINE_ROOT}/include/layerforge/${name}/*.h)
  set(own_files ${sources} ${own_headers})

  # The direct-dependency check: part of `all`, rerun whenever one of the module's files changes,
  # and independent of the compile, so a build reports both. Folders of modules defined later
  # are not known yet, so it is given every folder under the root.
  file(GLOB_RECURSE all_headers LIST_DIRECTORIES false RELATIVE ${LF_ENGINE_ROOT}/include/layerforge
       ${LF_ENGINE_ROOT}/include/layerforge/*.h)
  file(GLOB_RECURSE all_private LIST_DIRECTORIES false RELATIVE ${LF_ENGINE_ROOT}/src
       ${LF_ENGINE_ROOT}/src/*.h ${LF_ENGINE_ROOT}/src/*.cpp)
  set(engine_dirs)
  foreach(f IN LISTS all_headers all_private)
    get_filename_component(d ${f} DIRECTORY)
    list(APPEND engine_dirs ${d})
  endforeach()
  list(REMOVE_DUPLICATES engine_dirs)
  set(stamp ${tree}/includes.checked)
  string(REPLACE ";" "|" files_arg "${own_files}")
  string(REPLACE ";" "|" allowed_arg "${allowed_dirs}")
  string(REPLACE ";" "|" dirs_arg "${engine_dirs}")
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DMODULE=${name} -DROOT=${LF_ENGINE_ROOT} -DSTAMP=${stamp}
            -DFILES=${files_arg} -DALLOWED=${allowed_arg} -DENGINE_DIRS=${dirs_arg}
            -P ${_LF_CHECK_INCLUDES}
    DEPENDS ${own_files} ${_LF_CHECK_INCLUDES}
    COMMENT "Checking the includes of engine module ${name}" VERBATIM)
  add_custom_target(${target}_includes ALL DEPENDS ${stamp})
  if(sources)
    add_library(${target} STATIC ${sources})
    # No INTERFACE include folders: a dependent sees only what its own tree links to.
    target_include_directories(${target} PRIVATE ${tree}/include ${tree}/src)
    # PRIVATE still orders static libraries on every link line (as $<LINK_ONLY:...>).
    target_link_libraries(${target} PUBLIC ${arg_PUBLIC_LIBS}
      PRIVATE ${dep_targets} ${arg_PRIVATE_LIBS} ${LF_ENGINE_MODULE_OPTIONS})
  else()
    # A module with headers only (or none yet, while its first sources are written).
    add_library(${target} INTERFACE)
    target_link_libraries(${target} INTERFACE ${dep_targets} ${arg_PUBLIC_LIBS})
  endif()

  set_property(GLOBAL APPEND PROPERTY LF_ENGINE_MODULES ${name})
  set_property(GLOBAL PROPERTY LF_ENGINE_MODULE_${key}_CLOSURE ${closure})
  set_property(GLOBAL PROPERTY LF_ENGINE_MODULE_${key}_DEPS ${arg_DEPS})
  set_property(GLOBAL PROPERTY LF_ENGINE_MODULE_${key}_TREE ${tree})
endfunction()

# lf_engine_module_probe(TARGET MODULE SOURCE): compiles SOURCE as if it were a file of MODULE
# (its include tree and usage requirements), as an object library outside `all`. The boundary
# test builds probes that must fail and ones that must not.
function(lf_engine_module_probe target module source)
  _lf_module_key(${module} key)
  get_property(tree GLOBAL PROPERTY LF_ENGINE_MODULE_${key}_TREE)
  if(NOT tree)
    message(FATAL_ERROR "lf_engine_module_probe(${target}): no engine module '${module}'")
  endif()
  add_library(${target} OBJECT EXCLUDE_FROM_ALL ${source})
  target_include_directories(${target} PRIVATE ${tree}/include ${tree}/src)
  target_link_libraries(${target} PRIVATE lf_${key})
endfunction()
