// The passlab executable's body: command line, language, main window.
//   passlab [MODEL] [--lang CODE] [--search TEXT] [--run N|all] [--show-step N]
//           [--show-pass ID] [--main-tab] [--select-made-by ID] [--screenshot FILE]
#pragma once

namespace passlab::ui {

int runPassLab(int argc, char** argv);

}  // namespace passlab::ui
