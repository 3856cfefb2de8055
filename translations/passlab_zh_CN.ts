<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AttributeModel</name>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="48"/>
        <source>graph “%1” (%2 nodes)</source>
        <translation>图“%1”（%2 个节点）</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/attribute_model.cpp" line="53"/>
        <source>%n graph(s)</source>
        <translation>
            <numerusform>%n 个图</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Demos</name>
    <message>
        <location filename="../ui/demos/demos.cpp" line="10"/>
        <source>f(x1, x2) = ln(x1) + x1·x2 − sin(x2)</source>
        <translation>f(x1, x2) = ln(x1) + x1·x2 − sin(x2)</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="11"/>
        <source>Element-wise arithmetic on two inputs: the smallest graph with shared inputs and a fan-in.</source>
        <translation>两个输入上的逐元素运算：带共享输入和汇合的最小计算图。</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="14"/>
        <source>Conv + ReLU</source>
        <translation>Conv + ReLU</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="15"/>
        <source>A convolution followed by ReLU: the classic fusion (a base kernel plus an epilogue).</source>
        <translation>卷积后接 ReLU：经典的融合（基础算子加尾处理）。</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="19"/>
        <source>CNN block with BatchNorm and redundancies</source>
        <translation>含批归一化与冗余算子的 CNN 模块</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="20"/>
        <source>Conv, BatchNormalization and ReLU with Identity, Transpose and Reshape pairs that cancel out and a constant subexpression to fold.</source>
        <translation>Conv、BatchNormalization 与 ReLU，外加可相互抵消的 Identity、Transpose 和 Reshape 对，以及一个可折叠的常量子表达式。</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="25"/>
        <source>Transformer block</source>
        <translation>Transformer 块</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="26"/>
        <source>Self-attention and an MLP with a layer norm written out as ReduceMean, Sub, Pow, Sqrt and Div, and GELU in its erf form.</source>
        <translation>自注意力与 MLP；层归一化被展开为 ReduceMean、Sub、Pow、Sqrt 和 Div，GELU 采用 erf 形式。</translation>
    </message>
</context>
<context>
    <name>Document</name>
    <message>
        <location filename="../ui/document/document.cpp" line="56"/>
        <source>%1 is the file this model was opened from; choose another name or confirm overwriting it</source>
        <translation>%1 是打开此模型的原文件；请另选文件名，或确认覆盖该文件</translation>
    </message>
</context>
<context>
    <name>GraphRef</name>
    <message>
        <location filename="../ui/document/graph_ref.cpp" line="37"/>
        <source>main graph</source>
        <translation>主图</translation>
    </message>
</context>
<context>
    <name>ModelFiles</name>
    <message>
        <location filename="../ui/document/model_files.cpp" line="21"/>
        <source>Shape inference: %1</source>
        <translation>形状推断：%1</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="24"/>
        <source>Shape inference: %1 more problems</source>
        <translation>形状推断：另有 %1 个问题</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="27"/>
        <source>Shape inference: %1 declared types disagree with the inferred ones (the declared types are kept), e.g. %2</source>
        <translation>形状推断：有 %1 个声明的类型与推断结果不一致（保留声明的类型），例如 %2</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="45"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="60"/>
        <source>%1: cannot read the file (%2)</source>
        <translation>%1：无法读取文件（%2）</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="74"/>
        <source>Repaired: %1</source>
        <translation>已修复：%1</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="77"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
</context>
<context>
    <name>OpFamily</name>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="15"/>
        <source>Convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="17"/>
        <source>Linear (MatMul, Gemm)</source>
        <translation>线性（MatMul、Gemm）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="19"/>
        <source>Activation</source>
        <translation>激活</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="21"/>
        <source>Normalization</source>
        <translation>归一化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="23"/>
        <source>Pooling</source>
        <translation>池化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="25"/>
        <source>Elementwise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="27"/>
        <source>Reduction</source>
        <translation>归约</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="29"/>
        <source>Shape and layout</source>
        <translation>形状与布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="31"/>
        <source>Constant</source>
        <translation>常量</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="33"/>
        <source>Control flow</source>
        <translation>控制流</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="35"/>
        <source>Recurrent</source>
        <translation>循环网络</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="37"/>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="39"/>
        <source>Attention and fused</source>
        <translation>注意力与融合算子</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="41"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>PassStepCommand</name>
    <message>
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="19"/>
        <source>Step %1: %2 (rolled back)</source>
        <translation>第 %1 步：%2（已回滚）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="21"/>
        <source>Step %1: %2 (skipped)</source>
        <translation>第 %1 步：%2（已跳过）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="23"/>
        <source>Step %1: %2 (no change)</source>
        <translation>第 %1 步：%2（无变化）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="25"/>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
</context>
<context>
    <name>RenameNodeCommand</name>
    <message>
        <location filename="../ui/document/commands.cpp" line="11"/>
        <source>Rename node to “%1”</source>
        <translation>将节点重命名为“%1”</translation>
    </message>
</context>
<context>
    <name>ResetPipelineCommand</name>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="48"/>
        <source>Reset the pipeline (%n step(s))</source>
        <translation>
            <numerusform>重置流水线（%n 步）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunReport</name>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="48"/>
        <location filename="../ui/pipeline/run_report.cpp" line="50"/>
        <source>PassLab report: %1</source>
        <translation>PassLab 报告：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="52"/>
        <source>PassLab %1, %2</source>
        <translation>PassLab %1，%2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="58"/>
        <source>No pass has run.</source>
        <translation>尚未运行任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="66"/>
        <location filename="../ui/pipeline/run_report.cpp" line="152"/>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="66"/>
        <location filename="../ui/pipeline/run_report.cpp" line="153"/>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="68"/>
        <location filename="../ui/pipeline/run_report.cpp" line="88"/>
        <source>nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="72"/>
        <source>initializers</source>
        <translation>初始值</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="76"/>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="79"/>
        <source>%1 steps in %2 ms</source>
        <translation>%1 步，用时 %2 毫秒</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="85"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="87"/>
        <source>#</source>
        <translation>序号</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="87"/>
        <source>pass</source>
        <translation>优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="88"/>
        <source>changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="89"/>
        <source>time (ms)</source>
        <translation>用时（毫秒）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="89"/>
        <source>check</source>
        <translation>数值检查</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="97"/>
        <source>rolled back: %1</source>
        <translation>已回滚：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="99"/>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="125"/>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="152"/>
        <source>op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="157"/>
        <source>node made</source>
        <translation>生成的节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="158"/>
        <source>from the original nodes</source>
        <translation>来自原始节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="175"/>
        <location filename="../ui/pipeline/run_report.cpp" line="188"/>
        <location filename="../ui/pipeline/run_report.cpp" line="210"/>
        <source>and %1 more</source>
        <translation>另有 %1 个</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="190"/>
        <source>Removed:</source>
        <translation>已删除：</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="196"/>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="196"/>
        <source>pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="197"/>
        <source>why it did not match</source>
        <translation>未匹配的原因</translation>
    </message>
</context>
<context>
    <name>SetAttributeCommand</name>
    <message>
        <location filename="../ui/document/commands.cpp" line="32"/>
        <source>Set attribute %1</source>
        <translation>设置属性 %1</translation>
    </message>
    <message>
        <location filename="../ui/document/commands.cpp" line="33"/>
        <source>Remove attribute %1</source>
        <translation>删除属性 %1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="66"/>
        <source>PassLab: a workbench for optimizing ONNX inference graphs</source>
        <translation>PassLab：ONNX 推理图优化工作台</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="72"/>
        <source>ONNX model or text-format file to open (default: a bundled demo)</source>
        <translation>要打开的 ONNX 模型或文本格式文件（默认：内置示例）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="77"/>
        <source>Interface language for this run (en, zh_CN)</source>
        <translation>本次运行的界面语言（en、zh_CN）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="81"/>
        <source>Find this text and select the first match</source>
        <translation>查找此文本并选中第一个匹配项</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="85"/>
        <source>Save a picture of the window once the graph is drawn, then quit</source>
        <translation>计算图绘制完成后保存窗口截图，然后退出</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="90"/>
        <source>After opening, apply passes: a number of Steps, or &quot;all&quot; for Run All</source>
        <translation>打开后运行优化遍：给出步数，或用 &quot;all&quot; 全部运行</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="95"/>
        <source>After the passes, show what Step N changed (1 is the first)</source>
        <translation>运行后显示第 N 步的改动（第一步为 1）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="100"/>
        <source>After the passes, show what the last Step of this pass changed</source>
        <translation>运行后显示该优化遍最后一步的改动</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="105"/>
        <source>After the passes, select in the main graph a node this pass made</source>
        <translation>运行后在主图中选中该优化遍生成的一个节点</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="109"/>
        <source>After the passes, show the main graph rather than the Step</source>
        <translation>运行后显示主图而不是该步的改动</translation>
    </message>
</context>
<context>
    <name>passlab::ui::AttributeModel</name>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="154"/>
        <source>Double-click to edit; edits can be undone.</source>
        <translation>双击可编辑；编辑可以撤销。</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="164"/>
        <source>Attribute</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="166"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="168"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>passlab::ui::DiffPanel</name>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="94"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="95"/>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="99"/>
        <source>Overlay</source>
        <translation>叠加</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="100"/>
        <source>The graph after the Step, with the removed nodes drawn in</source>
        <translation>显示该步之后的图，并画出被删除的节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="101"/>
        <source>Side by Side</source>
        <translation>并排</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="102"/>
        <source>Before and after the Step, scrolled and zoomed together</source>
        <translation>该步之前与之后并排显示，同步滚动和缩放</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="103"/>
        <source>Show Changes</source>
        <translation>显示改动</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="104"/>
        <source>Open the groups holding the changes and fit them into view</source>
        <translation>展开包含改动的分组并使其适合视图</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="106"/>
        <source>%1 added  %2 removed  %3 rewired or rewritten</source>
        <translation>%1 新增  %2 删除  %3 重连或改写</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="108"/>
        <location filename="../ui/pipeline/diff_panel.cpp" line="168"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="109"/>
        <location filename="../ui/pipeline/diff_panel.cpp" line="169"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="111"/>
        <source>Choose a Step in the Timeline to see what it changed.</source>
        <translation>在时间线中选择一步以查看它的改动。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="115"/>
        <source>rolled back: %1</source>
        <translation>已回滚：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="117"/>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="118"/>
        <source>%1 removed, %2 added, %3 rewired, %4 rewritten</source>
        <translation>删除 %1，新增 %2，重连 %3，改写 %4</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="126"/>
        <source>%1 → %2 nodes</source>
        <translation>%1 → %2 个节点</translation>
    </message>
</context>
<context>
    <name>passlab::ui::GraphPanel</name>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="178"/>
        <source>Graphviz</source>
        <translation>Graphviz</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="178"/>
        <source>built-in layered layout</source>
        <translation>内置分层布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="179"/>
        <source>%1 boxes laid out by %2 in %3 s</source>
        <translation>%1 个方框由%2布局，用时 %3 秒</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="191"/>
        <source>too many boxes for Graphviz</source>
        <translation>方框过多，未交给 Graphviz</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="194"/>
        <source>the layout helper passlab-layout was not found</source>
        <translation>未找到布局辅助程序 passlab-layout</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="197"/>
        <source>Graphviz failed (%1)</source>
        <translation>Graphviz 失败（%1）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="201"/>
        <source>Graphviz took longer than %1 s and was stopped</source>
        <translation>Graphviz 用时超过 %1 秒，已被终止</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="204"/>
        <source>Graphviz layout cancelled</source>
        <translation>已取消 Graphviz 布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="207"/>
        <source>Graphviz answered with something unreadable (%1)</source>
        <translation>Graphviz 返回了无法解析的结果（%1）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="394"/>
        <source>Expand Group</source>
        <translation>展开分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="407"/>
        <source>Collapse Group “%1”</source>
        <translation>折叠分组“%1”</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="412"/>
        <source>Collapse Group</source>
        <translation>折叠分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="416"/>
        <source>Expand All Groups</source>
        <translation>展开全部分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="417"/>
        <source>Collapse All Groups</source>
        <translation>折叠全部分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="398"/>
        <source>Open Bodies in Tabs</source>
        <translation>在标签页中打开子图</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="420"/>
        <source>Fit to Window</source>
        <translation>适应窗口</translation>
    </message>
</context>
<context>
    <name>passlab::ui::GraphTabs</name>
    <message>
        <location filename="../ui/graphview/graph_tabs.cpp" line="59"/>
        <location filename="../ui/graphview/graph_tabs.cpp" line="118"/>
        <source>(no model)</source>
        <translation>（无模型）</translation>
    </message>
</context>
<context>
    <name>passlab::ui::IoModel</name>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="84"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="84"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="97"/>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="99"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="101"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
</context>
<context>
    <name>passlab::ui::MainWindow</name>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="122"/>
        <source>Running passes…</source>
        <translation>正在运行优化遍…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="326"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="327"/>
        <source>Open &amp;Demo</source>
        <translation>打开示例(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="328"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="329"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="330"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="331"/>
        <source>&amp;Pipeline</source>
        <translation>流水线(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="332"/>
        <source>&amp;Step</source>
        <translation>单步(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="333"/>
        <source>Run &amp;All</source>
        <translation>全部运行(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="334"/>
        <source>&amp;Reset</source>
        <translation>重置(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="335"/>
        <source>&amp;Cancel Run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="336"/>
        <source>&amp;Limit Passes to the Selection</source>
        <translation>优化遍仅作用于所选内容(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="338"/>
        <source>Passes only rewrite the selected node or the nodes of the selected group</source>
        <translation>优化遍只改写所选节点或所选分组中的节点</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="339"/>
        <source>E&amp;xclude the Selection from Passes</source>
        <translation>优化遍不作用于所选内容(&amp;X)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="340"/>
        <source>Passes leave the selected nodes as they are</source>
        <translation>优化遍不改动所选节点</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="341"/>
        <source>Passes on &amp;Every Node</source>
        <translation>优化遍作用于全部节点(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="342"/>
        <source>&amp;Load Recipe…</source>
        <translation>载入配方(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="343"/>
        <source>&amp;Export Recipe…</source>
        <translation>导出配方(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="344"/>
        <source>Export &amp;Report (HTML)…</source>
        <translation>导出报告(HTML)(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="345"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="346"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="347"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="348"/>
        <source>Export View as &amp;SVG…</source>
        <translation>将视图导出为 SVG(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="349"/>
        <source>Export View as &amp;PNG…</source>
        <translation>将视图导出为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="350"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="351"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="352"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="353"/>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="354"/>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="355"/>
        <source>Find &amp;Previous</source>
        <translation>查找上一个(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="356"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="357"/>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="358"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="359"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="360"/>
        <source>&amp;Actual Size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="361"/>
        <source>&amp;Expand All Groups</source>
        <translation>展开全部分组(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="362"/>
        <source>&amp;Collapse All Groups</source>
        <translation>折叠全部分组(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="363"/>
        <source>&amp;Lay Out Again</source>
        <translation>重新布局(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="364"/>
        <source>Arrow &amp;Labels (Type and Shape)</source>
        <translation>箭头标签（类型与形状）(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="365"/>
        <source>&amp;Minimap</source>
        <translation>缩略图(&amp;M)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="366"/>
        <source>&amp;About PassLab</source>
        <translation>关于 PassLab(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="367"/>
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="368"/>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="369"/>
        <source>Model Summary</source>
        <translation>模型概要</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="370"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="371"/>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="372"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="373"/>
        <source>&lt;opened&gt;</source>
        <translation>&lt;已打开&gt;</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="386"/>
        <source>No model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="387"/>
        <source>%1[*] — PassLab</source>
        <translation>%1[*] — PassLab</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="446"/>
        <source>Laying out %1…</source>
        <translation>正在布局 %1…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="489"/>
        <source>Discard changes?</source>
        <translation>放弃更改？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="490"/>
        <source>%1 has changes that are not saved. Discard them?</source>
        <translation>%1 有未保存的更改。要放弃这些更改吗？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="505"/>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="506"/>
        <source>Models (*.onnx *.txt *.onnxtxt);;ONNX models (*.onnx);;PassLab text format (*.txt *.onnxtxt);;All files (*)</source>
        <translation>模型 (*.onnx *.txt *.onnxtxt);;ONNX 模型 (*.onnx);;PassLab 文本格式 (*.txt *.onnxtxt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="523"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="527"/>
        <source>Opening cancelled</source>
        <translation>已取消打开</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="538"/>
        <source>Cannot open the model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="549"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="565"/>
        <source>Save Model As</source>
        <translation>模型另存为</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="566"/>
        <source>ONNX model (*.onnx);;PassLab text format (*.txt)</source>
        <translation>ONNX 模型 (*.onnx);;PassLab 文本格式 (*.txt)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="571"/>
        <source>Overwrite the original?</source>
        <translation>覆盖原文件？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="572"/>
        <source>%1 is the file this model was opened from. Replace it with the current model?</source>
        <translation>%1 是打开此模型的原文件。要用当前模型替换它吗？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="585"/>
        <source>%1 is the file this model was opened from; it was not overwritten.</source>
        <translation>%1 是打开此模型的原文件，未被覆盖。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="586"/>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="593"/>
        <source>Saving %1…</source>
        <translation>正在保存 %1…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="600"/>
        <source>Cannot save the model</source>
        <translation>无法保存模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="608"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="676"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="686"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="621"/>
        <source>Export View as SVG</source>
        <translation>将视图导出为 SVG</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="621"/>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="626"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="637"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="673"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="683"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="626"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="673"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="683"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="633"/>
        <source>Export View as PNG</source>
        <translation>将视图导出为 PNG</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="633"/>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="637"/>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="693"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="699"/>
        <source>Cannot load the recipe</source>
        <translation>无法载入配方</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="693"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="700"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="704"/>
        <source>Loaded the recipe %1</source>
        <translation>已载入配方 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="731"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="743"/>
        <source>Select a node or a group first</source>
        <translation>请先选择一个节点或分组</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="754"/>
        <source>Export Recipe</source>
        <translation>导出配方</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="754"/>
        <source>PassLab recipe (*.json)</source>
        <translation>PassLab 配方 (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="760"/>
        <source>Load Recipe</source>
        <translation>载入配方</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="761"/>
        <source>PassLab recipe (*.json);;All files (*)</source>
        <translation>PassLab 配方 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="771"/>
        <source>Export Report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="771"/>
        <source>HTML page (*.html)</source>
        <translation>HTML 网页 (*.html)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="794"/>
        <source>About PassLab</source>
        <translation>关于 PassLab</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="795"/>
        <source>&lt;h3&gt;PassLab %1&lt;/h3&gt;&lt;p&gt;A workbench for optimizing ONNX inference graphs: open a model, inspect it, apply passes step by step and see what each one changed.&lt;/p&gt;&lt;p&gt;Graph layout by Graphviz (in a separate process); built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;PassLab %1&lt;/h3&gt;&lt;p&gt;ONNX 推理图优化工作台：打开模型、查看其结构、逐步应用优化遍，并查看每一步改动了什么。&lt;/p&gt;&lt;p&gt;计算图布局由 Graphviz（在独立进程中）完成；基于 Qt %2 构建。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>passlab::ui::OpCountModel</name>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="29"/>
        <source>Not in PassLab&apos;s operator table at this opset</source>
        <translation>PassLab 的算子表在此 opset 下没有该算子</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="50"/>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="52"/>
        <source>Domain</source>
        <translation>域</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="54"/>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="56"/>
        <source>In bodies</source>
        <translation>子图中</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PipelinePanel</name>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="33"/>
        <source>Structural</source>
        <translation>结构</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="35"/>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="37"/>
        <source>Read/write</source>
        <translation>读写</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="39"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="47"/>
        <source>Nodes that compute nothing new: dead, identity, constant, repeated</source>
        <translation>不计算新内容的节点：无用、恒等、常量、重复</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="50"/>
        <source>The same result by less work: folded or cheaper operations</source>
        <translation>以更少的计算得到相同结果：折叠或更廉价的运算</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="52"/>
        <source>Fewer passes over memory: fused and reordered operations</source>
        <translation>更少的内存读写：融合与重排运算</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="54"/>
        <source>Narrower number formats</source>
        <translation>更窄的数值格式</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="217"/>
        <source>Running %1 (%2 of %3)…</source>
        <translation>正在运行 %1（第 %2 个，共 %3 个）…</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="236"/>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="238"/>
        <source>Choose passes…</source>
        <translation>选择优化遍…</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="239"/>
        <source>Basic: structural cleanup</source>
        <translation>基础：结构清理</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="240"/>
        <source>Default: cleanup, fusion, substitution</source>
        <translation>默认：清理、融合、替换</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="241"/>
        <source>All passes</source>
        <translation>全部优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="242"/>
        <source>Pass</source>
        <translation>优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="242"/>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="243"/>
        <source>Move &amp;Up</source>
        <translation>上移(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="244"/>
        <source>Move &amp;Down</source>
        <translation>下移(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="245"/>
        <source>Option</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="245"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="246"/>
        <source>Check the outputs numerically after each pass</source>
        <translation>每个优化遍之后对输出做数值检查</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="248"/>
        <source>Runs the model before the first Step and after each Step on the same seeded inputs and compares the outputs; the run stops at the first pass that changes them.</source>
        <translation>在第一步之前和每一步之后，用相同的随机种子输入运行模型并比较输出；运行在第一个改变输出的优化遍处停止。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="250"/>
        <source>Standard ONNX only</source>
        <translation>仅限标准 ONNX</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="252"/>
        <source>Passes that would emit PassLab or ONNX Runtime operators are skipped.</source>
        <translation>会生成 PassLab 或 ONNX Runtime 专有算子的优化遍将被跳过。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="253"/>
        <source>&amp;Step</source>
        <translation>单步(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="254"/>
        <source>Apply the next pass</source>
        <translation>应用下一个优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="255"/>
        <source>Run &amp;All</source>
        <translation>全部运行(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="256"/>
        <source>Apply every switched-on pass from the next one to the end</source>
        <translation>从下一个起应用所有已启用的优化遍，直到末尾</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="257"/>
        <source>Rese&amp;t</source>
        <translation>重置(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="258"/>
        <source>Back to the model before the first Step (undoable)</source>
        <translation>回到第一步之前的模型（可撤销）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="259"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="260"/>
        <source>Stop after the pass that is running</source>
        <translation>在当前运行的优化遍结束后停止</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="261"/>
        <source>All Nodes</source>
        <translation>全部节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="262"/>
        <source>Let the passes work on every node again</source>
        <translation>让优化遍重新作用于全部节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="299"/>
        <source>May change results in the last bits.</source>
        <translation>可能改变结果的最低几位。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="301"/>
        <source>May emit operators outside standard ONNX.</source>
        <translation>可能生成标准 ONNX 之外的算子。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="376"/>
        <source>Choose a pass to see what it does and its options.</source>
        <translation>选择一个优化遍以查看它的作用和选项。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="384"/>
        <source>No options.</source>
        <translation>无选项。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="399"/>
        <source>Default: %1</source>
        <translation>默认值：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="447"/>
        <source>Passes work only on the %n selected node(s).</source>
        <translation>
            <numerusform>优化遍仅作用于所选的 %n 个节点。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="450"/>
        <source>%n node(s) excluded from the passes.</source>
        <translation>
            <numerusform>%n 个节点不受优化遍影响。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="455"/>
        <source>No pass is switched on.</source>
        <translation>没有启用任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="456"/>
        <source>Next: %1</source>
        <translation>下一个：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="463"/>
        <source>No pass has run on this model yet.</source>
        <translation>此模型尚未运行任何优化遍。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="464"/>
        <source>%n step(s) applied.</source>
        <translation>
            <numerusform>已应用 %n 步。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>passlab::ui::PipelineSession</name>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="226"/>
        <source>The numeric check cannot run, so it is off for this run: %1</source>
        <translation>数值检查无法运行，本次运行不做检查：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_session.cpp" line="238"/>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="249"/>
        <source>Cancelled after %n pass(es)</source>
        <translation>
            <numerusform>已在 %n 个优化遍后取消</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="270"/>
        <source>%1 failed and was rolled back: %2</source>
        <translation>%1 失败并已回滚：%2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="275"/>
        <source>%1 changed the outputs (%2); the run stopped there</source>
        <translation>%1 改变了输出（%2）；运行在此停止</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="316"/>
        <source>The model changed while the passes ran; their results were dropped.</source>
        <translation>优化遍运行期间模型发生了变化；其结果已丢弃。</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PortModel</name>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="87"/>
        <source>(omitted)</source>
        <translation>（省略）</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="94"/>
        <source>initializer %1</source>
        <translation>初始值 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="95"/>
        <source>graph input</source>
        <translation>图输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="97"/>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="98"/>
        <source>outer scope</source>
        <translation>外层作用域</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/port_model.cpp" line="100"/>
        <source>%n reader(s)</source>
        <translation>
            <numerusform>%n 个读取者</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="101"/>
        <source>graph output</source>
        <translation>图输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="114"/>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="116"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="116"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="118"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="120"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="120"/>
        <source>Readers</source>
        <translation>读取者</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PropertiesPanel</name>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="184"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="185"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="186"/>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="187"/>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="188"/>
        <source>Schema</source>
        <translation>算子定义</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="189"/>
        <source>Documentation</source>
        <translation>说明</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="190"/>
        <source>Attributes</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="191"/>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="192"/>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="193"/>
        <source>Bodies</source>
        <translation>子图</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="194"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="195"/>
        <source>Initializer data</source>
        <translation>初始值数据</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="196"/>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="197"/>
        <source>Provenance</source>
        <translation>来源追溯</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="198"/>
        <source>Why patterns did not match</source>
        <translation>模式未匹配的原因</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="199"/>
        <source>Press Enter to rename; renaming can be undone.</source>
        <translation>按回车键重命名；重命名可以撤销。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="256"/>
        <source>Nothing selected</source>
        <translation>未选中任何内容</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="257"/>
        <source>Click a node, an arrow or a group in the graph to see its properties.</source>
        <translation>在计算图中点击节点、箭头或分组以查看其属性。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="280"/>
        <source>Gone</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="281"/>
        <source>The selected item no longer exists in this model.</source>
        <translation>所选项目在此模型中已不存在。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="287"/>
        <source>(unnamed node)</source>
        <translation>（未命名节点）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="303"/>
        <source>%1 %2, version %3 (model imports opset %4)</source>
        <translation>%1 %2，版本 %3（模型导入的 opset 为 %4）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="306"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="309"/>
        <source>Not defined at the imported opset; the newest known version is %1</source>
        <translation>在导入的 opset 中未定义；已知的最新版本为 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="313"/>
        <source>Unknown operator</source>
        <translation>未知算子</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="314"/>
        <source>PassLab&apos;s operator table has no entry for %1.</source>
        <translation>PassLab 的算子表中没有 %1。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="340"/>
        <source>Open %1 (%2 nodes)</source>
        <translation>打开 %1（%2 个节点）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="358"/>
        <source>No data yet. Provenance is recorded when optimization passes run; no pass has run on this model.</source>
        <translation>暂无数据。来源追溯在运行优化遍时记录；此模型尚未运行任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="361"/>
        <source>No data yet. Patterns report why they did not match when passes run; no pass has run on this model.</source>
        <translation>暂无数据。运行优化遍时，各模式会报告未能匹配的原因；此模型尚未运行任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="370"/>
        <source>Made by %1 (step %2) from: %3</source>
        <translation>由 %1（第 %2 步）生成，来源：%3</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="375"/>
        <source>Original node: no pass created or rewrote it.</source>
        <translation>原始节点：没有任何优化遍创建或改写它。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="379"/>
        <source>No pattern reported a failed match on this node.</source>
        <translation>没有模式报告在此节点上匹配失败。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="383"/>
        <source>%1 / %2: %3</source>
        <translation>%1 / %2：%3</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="395"/>
        <source>Type: %1</source>
        <translation>类型：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="396"/>
        <source>Graph input</source>
        <translation>图输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="397"/>
        <source>Graph output</source>
        <translation>图输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="398"/>
        <source>Initializer (constant data stored in the model)</source>
        <translation>初始值（存储在模型中的常量数据）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="400"/>
        <source>Produced by %1</source>
        <translation>由 %1 产生</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="404"/>
        <source>%1 (input %2)</source>
        <translation>%1（输入 %2）</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/properties_panel.cpp" line="405"/>
        <source>Read by %n node(s)</source>
        <translation>
            <numerusform>被 %n 个节点读取</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="418"/>
        <source>Element type: %1</source>
        <translation>元素类型：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="419"/>
        <source>Shape: %1</source>
        <translation>形状：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="420"/>
        <source>Elements: %1</source>
        <translation>元素个数：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="421"/>
        <source>Size: %1</source>
        <translation>大小：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="422"/>
        <source>Stored in: %1</source>
        <translation>存储位置：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="429"/>
        <source>Computing statistics of %1 elements…</source>
        <translation>正在统计 %1 个元素…</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="440"/>
        <source>No numeric statistics for this element type.</source>
        <translation>此元素类型没有数值统计。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="445"/>
        <source>Empty tensor.</source>
        <translation>空张量。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="450"/>
        <source>min %1   max %2</source>
        <translation>最小值 %1   最大值 %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="451"/>
        <source>mean %1   std %2</source>
        <translation>均值 %1   标准差 %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="452"/>
        <source>zeros %1 (%2%)</source>
        <translation>零值 %1（%2%）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="455"/>
        <source>NaN %1   Inf %2</source>
        <translation>NaN %1   Inf %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="469"/>
        <source>This group is not part of the current grouping.</source>
        <translation>此分组不属于当前的分组方式。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/properties_panel.cpp" line="473"/>
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="482"/>
        <source>Repeated block %1 of %2 with the same sequence of operators.</source>
        <translation>重复模块：算子序列相同的 %2 个模块中的第 %1 个。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="490"/>
        <source>Operators: %1</source>
        <translation>算子：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="491"/>
        <source>Double-click the group in the graph to open it; double-click the frame title of an open group to close it.</source>
        <translation>在计算图中双击分组可将其展开；双击已展开分组的边框标题可将其折叠。</translation>
    </message>
</context>
<context>
    <name>passlab::ui::SearchBar</name>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="73"/>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="75"/>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="81"/>
        <source>Find node name, op type or tensor name (Ctrl+F)</source>
        <translation>查找节点名称、算子类型或张量名称（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="86"/>
        <source>Anything</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="86"/>
        <source>Node name</source>
        <translation>节点名称</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="86"/>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="86"/>
        <source>Tensor name</source>
        <translation>张量名称</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="88"/>
        <source>Previous match (Shift+F3)</source>
        <translation>上一个匹配（Shift+F3）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="89"/>
        <source>Next match (F3)</source>
        <translation>下一个匹配（F3）</translation>
    </message>
</context>
<context>
    <name>passlab::ui::SettingsDialog</name>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="64"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="65"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="67"/>
        <source>System default (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="68"/>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="69"/>
        <source>Graphviz dot in a helper process, built-in layout if it fails</source>
        <translation>在辅助进程中运行 Graphviz dot，失败时使用内置布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="70"/>
        <source>Built-in layered layout only</source>
        <translation>仅使用内置分层布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="71"/>
        <source>Layout helper</source>
        <translation>布局辅助程序</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="72"/>
        <source>found automatically</source>
        <translation>自动查找</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="76"/>
        <source>passlab-layout was not found: the built-in layout will be used.</source>
        <translation>未找到 passlab-layout：将使用内置布局。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="77"/>
        <source>Using %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="78"/>
        <source>Stop Graphviz after (seconds)</source>
        <translation>Graphviz 超时时间（秒）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="79"/>
        <source>Group graphs with more nodes than</source>
        <translation>节点数超过此值时分组显示</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="80"/>
        <source>Open groups at first while boxes stay under</source>
        <translation>初始展开分组，直到方框数达到</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="81"/>
        <source>Label arrows with element type and shape</source>
        <translation>在箭头上标注元素类型和形状</translation>
    </message>
</context>
<context>
    <name>passlab::ui::SummaryPanel</name>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="103"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="104"/>
        <source>Inputs and outputs</source>
        <translation>输入与输出</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="105"/>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="106"/>
        <source>Loading notes</source>
        <translation>加载说明</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="107"/>
        <source>Colours</source>
        <translation>颜色</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="127"/>
        <source>No model is open.</source>
        <translation>未打开模型。</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="154"/>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="168"/>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="169"/>
        <source>Producer: %1</source>
        <translation>生成工具：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="170"/>
        <source>IR version: %1</source>
        <translation>IR 版本：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="171"/>
        <source>Opsets: %1</source>
        <translation>Opset：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="171"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="172"/>
        <source>Nodes: %1 in the main graph, %2 more in %3 bodies</source>
        <translation>节点：主图 %1 个，另有 %2 个位于 %3 个子图中</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="175"/>
        <source>Parameters: %1 in %2 tensors (%3)</source>
        <translation>参数：%1 个，分布在 %2 个张量中（%3）</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="180"/>
        <source>Mapped from external data: %1</source>
        <translation>从外部数据映射：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="183"/>
        <source>Compute: %1 GFLOP per run</source>
        <translation>计算量：每次运行 %1 GFLOP</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/summary/summary_panel.cpp" line="184"/>
        <source> (%n node(s) without a cost estimate)</source>
        <translation>
            <numerusform>（%n 个节点无法估算开销）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="187"/>
        <source>Types known for %1 of %2 values, shapes for %3</source>
        <translation>%2 个值中已知类型 %1 个，已知形状 %3 个</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="192"/>
        <source>Operators PassLab does not know: %1</source>
        <translation>PassLab 不认识的算子：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="193"/>
        <source>Verifier errors: %1</source>
        <translation>校验错误：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="201"/>
        <source>Unknown operator %1 (%2×): %3</source>
        <translation>未知算子 %1（%2 次）：%3</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="206"/>
        <source>Verifier: %1</source>
        <translation>校验：%1</translation>
    </message>
</context>
<context>
    <name>passlab::ui::TaskProgress</name>
    <message>
        <location filename="../ui/mainwindow/task_progress.cpp" line="31"/>
        <location filename="../ui/mainwindow/task_progress.cpp" line="69"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>passlab::ui::TimelineModel</name>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="15"/>
        <source>%n removed</source>
        <translation>
            <numerusform>删除 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="16"/>
        <source>%n added</source>
        <translation>
            <numerusform>新增 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="17"/>
        <source>%n rewired</source>
        <translation>
            <numerusform>重连 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="19"/>
        <source>%n rewritten</source>
        <translation>
            <numerusform>改写 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="21"/>
        <source>%n initializer(s) added</source>
        <translation>
            <numerusform>新增初始值 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="23"/>
        <source>%n initializer(s) removed</source>
        <translation>
            <numerusform>删除初始值 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="25"/>
        <source>%n initializer(s) changed</source>
        <translation>
            <numerusform>更改初始值 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="27"/>
        <source>%n graph output(s) rewired</source>
        <translation>
            <numerusform>重连图输出 %n</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="28"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="34"/>
        <source>failed: max |err| %1 at %2</source>
        <translation>未通过：最大 |误差| %1，位于 %2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="37"/>
        <source>passed: max |err| %1</source>
        <translation>通过：最大 |误差| %1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="92"/>
        <source>#</source>
        <translation>序号</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="94"/>
        <source>Pass</source>
        <translation>优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="96"/>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="98"/>
        <source>Changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="100"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="102"/>
        <source>Check</source>
        <translation>数值检查</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="130"/>
        <source>%n pass(es) changed nothing</source>
        <translation>
            <numerusform>%n 个优化遍没有改动</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="136"/>
        <location filename="../ui/pipeline/timeline_model.cpp" line="164"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="159"/>
        <source>rolled back: %1</source>
        <translation>已回滚：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="28"/>
        <location filename="../ui/pipeline/timeline_model.cpp" line="161"/>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
</context>
<context>
    <name>passlab::ui::TimelinePanel</name>
    <message>
        <location filename="../ui/pipeline/timeline_panel.cpp" line="52"/>
        <source>No Steps yet: press Step or Run All in the Pipeline panel.</source>
        <translation>还没有步骤：请在流水线面板中按“单步”或“全部运行”。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_panel.cpp" line="58"/>
        <source>%n step(s): %1 → %2 nodes in %3 ms</source>
        <translation>
            <numerusform>%n 步：%1 → %2 个节点，用时 %3 毫秒</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_panel.cpp" line="74"/>
        <source>Show passes that changed nothing</source>
        <translation>显示没有改动的优化遍</translation>
    </message>
</context>
</TS>
