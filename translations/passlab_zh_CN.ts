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
        <location filename="../ui/document/document.cpp" line="54"/>
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
        <location filename="../ui/document/model_files.cpp" line="44"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="58"/>
        <source>%1: cannot read the file (%2)</source>
        <translation>%1：无法读取文件（%2）</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="70"/>
        <source>Repaired: %1</source>
        <translation>已修复：%1</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="72"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
</context>
<context>
    <name>OpFamily</name>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="14"/>
        <source>Convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="15"/>
        <source>Linear (MatMul, Gemm)</source>
        <translation>线性（MatMul、Gemm）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="16"/>
        <source>Activation</source>
        <translation>激活</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="17"/>
        <source>Normalization</source>
        <translation>归一化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="18"/>
        <source>Pooling</source>
        <translation>池化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="19"/>
        <source>Elementwise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="20"/>
        <source>Reduction</source>
        <translation>归约</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="21"/>
        <source>Shape and layout</source>
        <translation>形状与布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="22"/>
        <source>Constant</source>
        <translation>常量</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="23"/>
        <source>Control flow</source>
        <translation>控制流</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="24"/>
        <source>Recurrent</source>
        <translation>循环网络</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="25"/>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="26"/>
        <source>Attention and fused</source>
        <translation>注意力与融合算子</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="27"/>
        <source>Other</source>
        <translation>其他</translation>
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
        <location filename="../ui/mainwindow/application.cpp" line="61"/>
        <source>PassLab: a workbench for optimizing ONNX inference graphs</source>
        <translation>PassLab：ONNX 推理图优化工作台</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="66"/>
        <source>ONNX model or text-format file to open (default: a bundled demo)</source>
        <translation>要打开的 ONNX 模型或文本格式文件（默认：内置示例）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="69"/>
        <source>Interface language for this run (en, zh_CN)</source>
        <translation>本次运行的界面语言（en、zh_CN）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="72"/>
        <source>Find this text and select the first match</source>
        <translation>查找此文本并选中第一个匹配项</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="76"/>
        <source>Save a picture of the window once the graph is drawn, then quit</source>
        <translation>计算图绘制完成后保存窗口截图，然后退出</translation>
    </message>
</context>
<context>
    <name>passlab::ui::AttributeModel</name>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="152"/>
        <source>Double-click to edit; edits can be undone.</source>
        <translation>双击可编辑；编辑可以撤销。</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="162"/>
        <source>Attribute</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="164"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="166"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>passlab::ui::GraphPanel</name>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="174"/>
        <source>Graphviz</source>
        <translation>Graphviz</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="174"/>
        <source>built-in layered layout</source>
        <translation>内置分层布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="175"/>
        <source>%1 boxes laid out by %2 in %3 s</source>
        <translation>%1 个方框由%2布局，用时 %3 秒</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="187"/>
        <source>too many boxes for Graphviz</source>
        <translation>方框过多，未交给 Graphviz</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="190"/>
        <source>the layout helper passlab-layout was not found</source>
        <translation>未找到布局辅助程序 passlab-layout</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="193"/>
        <source>Graphviz failed (%1)</source>
        <translation>Graphviz 失败（%1）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="196"/>
        <source>Graphviz took longer than %1 s and was stopped</source>
        <translation>Graphviz 用时超过 %1 秒，已被终止</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="199"/>
        <source>Graphviz layout cancelled</source>
        <translation>已取消 Graphviz 布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="202"/>
        <source>Graphviz answered with something unreadable (%1)</source>
        <translation>Graphviz 返回了无法解析的结果（%1）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="343"/>
        <source>Expand Group</source>
        <translation>展开分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="356"/>
        <source>Collapse Group “%1”</source>
        <translation>折叠分组“%1”</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="361"/>
        <source>Collapse Group</source>
        <translation>折叠分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="365"/>
        <source>Expand All Groups</source>
        <translation>展开全部分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="366"/>
        <source>Collapse All Groups</source>
        <translation>折叠全部分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="347"/>
        <source>Open Bodies in Tabs</source>
        <translation>在标签页中打开子图</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="369"/>
        <source>Fit to Window</source>
        <translation>适应窗口</translation>
    </message>
</context>
<context>
    <name>passlab::ui::GraphTabs</name>
    <message>
        <location filename="../ui/graphview/graph_tabs.cpp" line="55"/>
        <location filename="../ui/graphview/graph_tabs.cpp" line="101"/>
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
        <location filename="../ui/mainwindow/main_window.cpp" line="230"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="231"/>
        <source>Open &amp;Demo</source>
        <translation>打开示例(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="232"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="233"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="234"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="235"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="236"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="237"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="238"/>
        <source>Export View as &amp;SVG…</source>
        <translation>将视图导出为 SVG(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="239"/>
        <source>Export View as &amp;PNG…</source>
        <translation>将视图导出为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="240"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="241"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="242"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="243"/>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="244"/>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="245"/>
        <source>Find &amp;Previous</source>
        <translation>查找上一个(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="246"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="247"/>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="248"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="249"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="250"/>
        <source>&amp;Actual Size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="251"/>
        <source>&amp;Expand All Groups</source>
        <translation>展开全部分组(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="252"/>
        <source>&amp;Collapse All Groups</source>
        <translation>折叠全部分组(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="253"/>
        <source>&amp;Lay Out Again</source>
        <translation>重新布局(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="254"/>
        <source>Arrow &amp;Labels (Type and Shape)</source>
        <translation>箭头标签（类型与形状）(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="255"/>
        <source>&amp;Minimap</source>
        <translation>缩略图(&amp;M)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="256"/>
        <source>&amp;About PassLab</source>
        <translation>关于 PassLab(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="257"/>
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="258"/>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="259"/>
        <source>Model Summary</source>
        <translation>模型概要</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="260"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="261"/>
        <source>&lt;opened&gt;</source>
        <translation>&lt;已打开&gt;</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="274"/>
        <source>No model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="275"/>
        <source>%1[*] — PassLab</source>
        <translation>%1[*] — PassLab</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="322"/>
        <source>Laying out %1…</source>
        <translation>正在布局 %1…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="365"/>
        <source>Discard changes?</source>
        <translation>放弃更改？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="366"/>
        <source>%1 has changes that are not saved. Discard them?</source>
        <translation>%1 有未保存的更改。要放弃这些更改吗？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="381"/>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="382"/>
        <source>Models (*.onnx *.txt *.onnxtxt);;ONNX models (*.onnx);;PassLab text format (*.txt *.onnxtxt);;All files (*)</source>
        <translation>模型 (*.onnx *.txt *.onnxtxt);;ONNX 模型 (*.onnx);;PassLab 文本格式 (*.txt *.onnxtxt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="399"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="403"/>
        <source>Opening cancelled</source>
        <translation>已取消打开</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="414"/>
        <source>Cannot open the model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="425"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="440"/>
        <source>Save Model As</source>
        <translation>模型另存为</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="441"/>
        <source>ONNX model (*.onnx);;PassLab text format (*.txt)</source>
        <translation>ONNX 模型 (*.onnx);;PassLab 文本格式 (*.txt)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="446"/>
        <source>Overwrite the original?</source>
        <translation>覆盖原文件？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="447"/>
        <source>%1 is the file this model was opened from. Replace it with the current model?</source>
        <translation>%1 是打开此模型的原文件。要用当前模型替换它吗？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="459"/>
        <source>%1 is the file this model was opened from; it was not overwritten.</source>
        <translation>%1 是打开此模型的原文件，未被覆盖。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="460"/>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="467"/>
        <source>Saving %1…</source>
        <translation>正在保存 %1…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="474"/>
        <source>Cannot save the model</source>
        <translation>无法保存模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="482"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="494"/>
        <source>Export View as SVG</source>
        <translation>将视图导出为 SVG</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="495"/>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="500"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="511"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="500"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="506"/>
        <source>Export View as PNG</source>
        <translation>将视图导出为 PNG</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="507"/>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="511"/>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="532"/>
        <source>About PassLab</source>
        <translation>关于 PassLab</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="533"/>
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
    <name>passlab::ui::PortModel</name>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="85"/>
        <source>(omitted)</source>
        <translation>（省略）</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="91"/>
        <source>initializer %1</source>
        <translation>初始值 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="92"/>
        <source>graph input</source>
        <translation>图输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="94"/>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="95"/>
        <source>outer scope</source>
        <translation>外层作用域</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/port_model.cpp" line="97"/>
        <source>%n reader(s)</source>
        <translation>
            <numerusform>%n 个读取者</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="98"/>
        <source>graph output</source>
        <translation>图输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="111"/>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="113"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="113"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="115"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="117"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="117"/>
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
        <location filename="../ui/properties/properties_panel.cpp" line="302"/>
        <source>%1 %2, version %3 (model imports opset %4)</source>
        <translation>%1 %2，版本 %3（模型导入的 opset 为 %4）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="305"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="308"/>
        <source>Not defined at the imported opset; the newest known version is %1</source>
        <translation>在导入的 opset 中未定义；已知的最新版本为 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="312"/>
        <source>Unknown operator</source>
        <translation>未知算子</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="313"/>
        <source>PassLab&apos;s operator table has no entry for %1.</source>
        <translation>PassLab 的算子表中没有 %1。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="339"/>
        <source>Open %1 (%2 nodes)</source>
        <translation>打开 %1（%2 个节点）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="357"/>
        <source>No data yet. Provenance is recorded when optimization passes run; no pass has run on this model.</source>
        <translation>暂无数据。来源追溯在运行优化遍时记录；此模型尚未运行任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="360"/>
        <source>No data yet. Patterns report why they did not match when passes run; no pass has run on this model.</source>
        <translation>暂无数据。运行优化遍时，各模式会报告未能匹配的原因；此模型尚未运行任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="369"/>
        <source>Made by %1 (step %2) from: %3</source>
        <translation>由 %1（第 %2 步）生成，来源：%3</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="374"/>
        <source>Original node: no pass created or rewrote it.</source>
        <translation>原始节点：没有任何优化遍创建或改写它。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="378"/>
        <source>No pattern reported a failed match on this node.</source>
        <translation>没有模式报告在此节点上匹配失败。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="382"/>
        <source>%1 / %2: %3</source>
        <translation>%1 / %2：%3</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="394"/>
        <source>Type: %1</source>
        <translation>类型：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="395"/>
        <source>Graph input</source>
        <translation>图输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="396"/>
        <source>Graph output</source>
        <translation>图输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="397"/>
        <source>Initializer (constant data stored in the model)</source>
        <translation>初始值（存储在模型中的常量数据）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="398"/>
        <source>Produced by %1</source>
        <translation>由 %1 产生</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="401"/>
        <source>%1 (input %2)</source>
        <translation>%1（输入 %2）</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/properties_panel.cpp" line="402"/>
        <source>Read by %n node(s)</source>
        <translation>
            <numerusform>被 %n 个节点读取</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="413"/>
        <source>Element type: %1</source>
        <translation>元素类型：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="414"/>
        <source>Shape: %1</source>
        <translation>形状：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="415"/>
        <source>Elements: %1</source>
        <translation>元素个数：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="416"/>
        <source>Size: %1</source>
        <translation>大小：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="418"/>
        <source>Stored in: %1</source>
        <translation>存储位置：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="425"/>
        <source>Computing statistics of %1 elements…</source>
        <translation>正在统计 %1 个元素…</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="436"/>
        <source>No numeric statistics for this element type.</source>
        <translation>此元素类型没有数值统计。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="441"/>
        <source>Empty tensor.</source>
        <translation>空张量。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="446"/>
        <source>min %1   max %2</source>
        <translation>最小值 %1   最大值 %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="447"/>
        <source>mean %1   std %2</source>
        <translation>均值 %1   标准差 %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="448"/>
        <source>zeros %1 (%2%)</source>
        <translation>零值 %1（%2%）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="451"/>
        <source>NaN %1   Inf %2</source>
        <translation>NaN %1   Inf %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="465"/>
        <source>This group is not part of the current grouping.</source>
        <translation>此分组不属于当前的分组方式。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/properties_panel.cpp" line="469"/>
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="478"/>
        <source>Repeated block %1 of %2 with the same sequence of operators.</source>
        <translation>重复模块：算子序列相同的 %2 个模块中的第 %1 个。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="484"/>
        <source>Operators: %1</source>
        <translation>算子：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="485"/>
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
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="63"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="64"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="65"/>
        <source>System default (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="66"/>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="67"/>
        <source>Graphviz dot in a helper process, built-in layout if it fails</source>
        <translation>在辅助进程中运行 Graphviz dot，失败时使用内置布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="68"/>
        <source>Built-in layered layout only</source>
        <translation>仅使用内置分层布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="69"/>
        <source>Layout helper</source>
        <translation>布局辅助程序</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="70"/>
        <source>found automatically</source>
        <translation>自动查找</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="72"/>
        <source>passlab-layout was not found: the built-in layout will be used.</source>
        <translation>未找到 passlab-layout：将使用内置布局。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="73"/>
        <source>Using %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="74"/>
        <source>Stop Graphviz after (seconds)</source>
        <translation>Graphviz 超时时间（秒）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="75"/>
        <source>Group graphs with more nodes than</source>
        <translation>节点数超过此值时分组显示</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="76"/>
        <source>Open groups at first while boxes stay under</source>
        <translation>初始展开分组，直到方框数达到</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="77"/>
        <source>Label arrows with element type and shape</source>
        <translation>在箭头上标注元素类型和形状</translation>
    </message>
</context>
<context>
    <name>passlab::ui::SummaryPanel</name>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="102"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="103"/>
        <source>Inputs and outputs</source>
        <translation>输入与输出</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="104"/>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="105"/>
        <source>Loading notes</source>
        <translation>加载说明</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="106"/>
        <source>Colours</source>
        <translation>颜色</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="125"/>
        <source>No model is open.</source>
        <translation>未打开模型。</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="152"/>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="165"/>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="166"/>
        <source>Producer: %1</source>
        <translation>生成工具：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="167"/>
        <source>IR version: %1</source>
        <translation>IR 版本：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="168"/>
        <source>Opsets: %1</source>
        <translation>Opset：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="168"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="169"/>
        <source>Nodes: %1 in the main graph, %2 more in %3 bodies</source>
        <translation>节点：主图 %1 个，另有 %2 个位于 %3 个子图中</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="172"/>
        <source>Parameters: %1 in %2 tensors (%3)</source>
        <translation>参数：%1 个，分布在 %2 个张量中（%3）</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="177"/>
        <source>Mapped from external data: %1</source>
        <translation>从外部数据映射：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="179"/>
        <source>Compute: %1 GFLOP per run</source>
        <translation>计算量：每次运行 %1 GFLOP</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/summary/summary_panel.cpp" line="180"/>
        <source> (%n node(s) without a cost estimate)</source>
        <translation>
            <numerusform>（%n 个节点无法估算开销）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="183"/>
        <source>Types known for %1 of %2 values, shapes for %3</source>
        <translation>%2 个值中已知类型 %1 个，已知形状 %3 个</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="187"/>
        <source>Operators PassLab does not know: %1</source>
        <translation>PassLab 不认识的算子：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="188"/>
        <source>Verifier errors: %1</source>
        <translation>校验错误：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="196"/>
        <source>Unknown operator %1 (%2×): %3</source>
        <translation>未知算子 %1（%2 次）：%3</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="200"/>
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
</TS>
