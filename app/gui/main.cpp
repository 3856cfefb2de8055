// passlab: the Qt workbench. Everything lives in ui/; this is only the entry.
#include "ui/mainwindow/application.h"

int main(int argc, char** argv) {
  return passlab::ui::runPassLab(argc, argv);
}
