#include "ui/pipeline/pass_help.h"

#include <QEvent>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "core/passes/pass_docs.h"
#include "core/passes/registry.h"
#include "ui/i18n/core_text.h"
#include "ui/mainwindow/language.h"
#include "ui/pipeline/pass_category_text.h"

namespace passlab::ui {

namespace {

QString escaped(const std::string& s) {
  return QString::fromStdString(s).toHtmlEscaped();
}

QString optionsHtml(const passes::PassInfo& info) {
  if (info.options.empty()) return PassHelpDialog::tr("No options.").toHtmlEscaped();
  QString rows;
  for (const passes::PassOption& o : info.options)
    rows += QStringLiteral("<tr><td><code>%1</code></td><td>%2</td><td>%3</td><td>%4</td></tr>")
                .arg(escaped(o.name), QString::fromLatin1(passes::optionKindName(o.kind)),
                     o.defaultValue.empty() ? QString() : escaped(o.defaultValue), escaped(o.help));
  return QStringLiteral(
             "<table border=\"1\" cellpadding=\"3\" cellspacing=\"0\">"
             "<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th></tr>%5</table>")
      .arg(PassHelpDialog::tr("Option"), PassHelpDialog::tr("Values"),
           PassHelpDialog::tr("Default"), PassHelpDialog::tr("What it sets"), rows);
}

QString flagsHtml(const passes::PassInfo& info) {
  QStringList flags;
  if (info.lossy)
    flags << PassHelpDialog::tr(
        "Lossy: the check holds its outputs to the accuracy budget, not to equality.");
  else if (info.changesNumerics)
    flags << PassHelpDialog::tr("May change results in the last bits.");
  if (info.mayEmitNonStandard)
    flags << PassHelpDialog::tr("May emit operators outside standard ONNX.");
  if (info.byNameOnly)
    flags << PassHelpDialog::tr("Runs only when named, never as part of a level.");
  flags << PassHelpDialog::tr("Written and tested for default-domain opsets %1 to %2.")
               .arg(info.minOpset)
               .arg(info.maxOpset);
  QString out;
  for (const QString& f : flags) out += QStringLiteral("<li>%1</li>").arg(f.toHtmlEscaped());
  return QStringLiteral("<ul>%1</ul>").arg(out);
}

QString lessonHtml(const QString& id, const LessonLinks* links) {
  const QString title = links ? links->lessonTitleFor(id) : QString();
  if (title.isEmpty()) return {};
  return QStringLiteral("<p><a href=\"lesson:%1\">%2</a></p>")
      .arg(id.toHtmlEscaped(),
           PassHelpDialog::tr("Open the lesson: %1").arg(title).toHtmlEscaped());
}

}  // namespace

QString passSummary(const passes::PassInfo& info) {
  const bool zh = Language::current().startsWith(QLatin1String("zh"));
  return QString::fromStdString(zh && !info.summaryZh.empty() ? info.summaryZh : info.summaryEn);
}

PassHelpDialog::PassHelpDialog(LessonLinks* links, QWidget* parent)
    : QDialog(parent), links_(links) {
  browser_ = new QTextBrowser(this);
  browser_->setOpenLinks(false);
  connect(browser_, &QTextBrowser::anchorClicked, this, &PassHelpDialog::onLinkClicked);
  auto* col = new QVBoxLayout(this);
  col->addWidget(browser_);
  resize(640, 560);
}

QString PassHelpDialog::html(const passes::PassInfo& info, const LessonLinks* links) {
  const QString id = QString::fromStdString(info.id);
  const std::string doc = passes::passDocumentation(info.id);
  return QStringLiteral(
             "<h2>%1</h2><p>%2</p>"
             "<p><b>%3</b> (%4) — %5</p>%6"
             "<h3>%7</h3>%8<h3>%9</h3>%10<h3>%11</h3><pre>%12</pre>")
      .arg(id.toHtmlEscaped(), passSummary(info).toHtmlEscaped(),
           PassCategoryText::title(info.category).toHtmlEscaped(),
           trCore(info.kind).toHtmlEscaped(), PassCategoryText::help(info.category).toHtmlEscaped(),
           lessonHtml(id, links), tr("Options").toHtmlEscaped(), optionsHtml(info),
           tr("Properties").toHtmlEscaped(), flagsHtml(info),
           tr("How it works (from its source)").toHtmlEscaped(),
           doc.empty() ? tr("Not documented.").toHtmlEscaped()
                       : QString::fromStdString(doc).toHtmlEscaped());
}

bool PassHelpDialog::showPass(const QString& id) {
  id_ = id;
  const passes::Pass* pass = passes::findPass(id.toStdString());
  setWindowTitle(tr("About %1").arg(id));
  browser_->setHtml(pass ? html(pass->info(), links_) : QString());
  return pass != nullptr;
}

void PassHelpDialog::onLinkClicked(const QUrl& url) {
  if (url.scheme() == QLatin1String("lesson") && links_ != nullptr)
    links_->openLessonFor(url.path());
}

void PassHelpDialog::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange && !id_.isEmpty()) showPass(id_);
  QDialog::changeEvent(event);
}

void showPassHelp(QWidget* parent, const QString& id) {
  QWidget* window = parent ? parent->window() : nullptr;
  auto* dialog = window ? window->findChild<PassHelpDialog*>() : nullptr;
  if (dialog == nullptr) dialog = new PassHelpDialog(dynamic_cast<LessonLinks*>(window), window);
  dialog->showPass(id);
  dialog->show();
  dialog->raise();
  dialog->activateWindow();
}

}  // namespace passlab::ui
