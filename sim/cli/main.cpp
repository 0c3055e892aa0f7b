#include <iostream>

#include "sim/cli/app.hpp"

int main(int argc, char** argv) { return mpisim::cli::run_cli(argc, argv, std::cout, std::cerr); }
