// The passlab executable's body: command line, language, main window.
//   passlab [MODEL] [--lang CODE] [--search TEXT] [--screenshot FILE]
#pragma once

namespace passlab::ui {

int runPassLab(int argc, char** argv);

}  // namespace passlab::ui
