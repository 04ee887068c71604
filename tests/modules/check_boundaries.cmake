# The proof that module boundaries are enforced by the build (CTest engine/module_boundaries).
#  1. A fixture engine (fixture/) built with lf_engine_module(): the declared graph builds; an
#     include of an undeclared module fails to compile, also one of a module nested in a declared
#     one's folder; one of a dependency's dependency compiles but fails the include check; a
#     dependency on a module defined later (how a cycle must be written) fails to configure.
#  2. The real engine: probe sources compiled with a module's include tree (tests/CMakeLists.txt
#     defines them, excluded from `all`): core cannot see graph, train cannot see store or
#     plugins (the cycles cut in issue 19), store can see train (a declared edge).
# Arguments: -DMODULE_CMAKE= -DFIXTURE= -DSCRATCH= -DGENERATOR= -DCXX= -DBUILD_DIR= -DPROBES=
#            (PROBES: target=pass|fail pairs separated by ';', passed as '|'-joined).

function(run_step out_rc out_log)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_log} "${o}${e}" PARENT_SCOPE)
endfunction()

# expect(WHAT LOG CONDITION...): the condition as if() takes it.
function(expect what log)
  if(${ARGN})
    message(STATUS "ok: ${what}")
  else()
    message(SEND_ERROR "FAILED: ${what}\n${log}")
  endif()
endfunction()

function(fixture case)
  set(bin ${SCRATCH}/${case})
  file(REMOVE_RECURSE ${bin})
  run_step(rc log ${CMAKE_COMMAND} -S ${FIXTURE} -B ${bin} -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
           -DLF_MODULE_CMAKE=${MODULE_CMAKE} -DLF_CASE=${case})
  set(configure_rc ${rc} PARENT_SCOPE)
  set(configure_log "${log}" PARENT_SCOPE)
  if(rc EQUAL 0)
    # -k 0: every failing file is reported, not just the first.
    run_step(rc log ${CMAKE_COMMAND} --build ${bin} -- -k 0)
    set(build_rc ${rc} PARENT_SCOPE)
    set(build_log "${log}" PARENT_SCOPE)
  endif()
endfunction()

fixture(ok)
expect("the declared fixture graph configures" "${configure_log}" configure_rc EQUAL 0)
expect("the declared fixture graph builds (own private headers, dependencies' public ones)" "${build_log}" build_rc EQUAL 0)

fixture(undeclared)
expect("a fixture with undeclared includes configures" "${configure_log}" configure_rc EQUAL 0)
expect("an include of an undeclared module fails the build" "${build_log}" NOT build_rc EQUAL 0)
string(REGEX MATCH "layerforge/c/c.h: No such file" c_missing "${build_log}")
expect("d (declares b) cannot include c's header" "${build_log}" c_missing)
string(REGEX MATCH "layerforge/x/y/y.h: No such file" y_missing "${build_log}")
expect("f (declares x) cannot include x/y, a module inside x's folder" "${build_log}" y_missing)
string(FIND "${build_log}" "src/d/d.cpp: #include \"layerforge/c/c.h\" is in module folder 'c', which 'd' does not declare" d_refused)
expect("the include check names d's undeclared include as well" "${build_log}" d_refused GREATER -1)
string(FIND "${build_log}" "src/e/e.cpp: #include \"layerforge/a/a.h\" is in module folder 'a', which 'e' does not declare" e_refused)
expect("e (declares b) cannot lean on a, b's dependency" "${build_log}" e_refused GREATER -1)
string(REGEX MATCHALL "FAILED: [^\n]*" failed_lines "${build_log}")
set(others "${failed_lines}")
list(FILTER others EXCLUDE REGEX "lf_[def](\\.dir|_includes)|includes.checked")
expect("only the offending modules fail" "${build_log}" NOT others)
foreach(ok_module a b c x x_y)
  string(FIND "${build_log}" "Linking CXX static library liblf_${ok_module}.a" linked)
  expect("module ${ok_module} still builds" "${build_log}" linked GREATER -1)
endforeach()

fixture(cycle)
expect("a dependency on a later module (a cycle) fails to configure" "${configure_log}" NOT configure_rc EQUAL 0)
string(FIND "${configure_log}" "engine module 'a' depends on 'b', which is not defined before it" at)
expect("the configure error names both modules" "${configure_log}" at GREATER -1)

string(REPLACE "|" ";" probes "${PROBES}")
foreach(p IN LISTS probes)
  string(REPLACE "=" ";" parts "${p}")
  list(GET parts 0 target)
  list(GET parts 1 outcome)
  run_step(rc log ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${target})
  if(outcome STREQUAL "pass")
    expect("engine probe ${target} compiles" "${log}" rc EQUAL 0)
  else()
    string(REGEX MATCH "No such file or directory" missing "${log}")
    expect("engine probe ${target} fails for a missing header" "${log}" missing)
  endif()
endforeach()
